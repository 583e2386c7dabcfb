import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The binary of a benchmark's Go peer, built once per source hash into the tsoperator cache
 * folder (never into the repository).
 */
export function goPeer(sourceDir: string, name: string): string {
  const hash = createHash('sha256');
  // Every file of the module decides the binary, not only main.go.
  const sources = readdirSync(sourceDir)
    .filter((file) => file.endsWith('.go') || file === 'go.mod' || file === 'go.sum')
    .sort();
  for (const file of sources) hash.update(file).update(readFileSync(join(sourceDir, file)));
  const cache = process.env['TSOPERATOR_CACHE'] ?? join(homedir(), '.cache', 'tsoperator');
  const binary = join(cache, 'bench', name, hash.digest('hex').slice(0, 16), `${name}-bench`);
  if (!existsSync(binary)) {
    mkdirSync(dirname(binary), { recursive: true });
    console.error(`building the Go peer into ${binary}`);
    execFileSync('go', ['build', '-o', binary, '.'], { cwd: sourceDir, stdio: 'inherit' });
  }
  return binary;
}
