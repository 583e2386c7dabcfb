import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { resolveAssets } from '../../src/envtest/index.ts';
import { shellWord } from '../../src/scaffold/update/format-update.ts';
import { repoRoot } from './cli.ts';

/**
 * Variables of this test run, not of a reader's terminal: the test runner's marker would make a
 * project's own `node --test` take itself for part of this run, and a kubeconfig of the machine's
 * must not stand in for the one the page starts.
 */
const NOT_THE_READERS: ReadonlySet<string> = new Set(['NODE_TEST_CONTEXT', 'KUBECONFIG']);

/**
 * What `npm test` sets for the scripts it runs (`npm_config_*`, `npm_package_*`, `INIT_CWD`): the
 * reader's npm reads its settings afresh, in the project's folder.
 */
function fromNpmRun(name: string): boolean {
  return name.startsWith('npm_') || name === 'INIT_CWD';
}

/**
 * Fills `bin` with the commands the book's pages take for granted: `tsoperator`, this checkout's CLI
 * (what `npm link` in a checkout gives the reader), and `kubectl`, the one among the control-plane
 * binaries. Returns the environment a reader's terminal starts with: this process's, with `bin`
 * and this Node first on PATH, and nothing this test run set for itself.
 */
export async function readerEnvironment(bin: string): Promise<Record<string, string>> {
  await mkdir(bin, { recursive: true });
  const cli = [process.execPath, join(repoRoot, 'bin', 'tsoperator.js')].map(shellWord).join(' ');
  await writeFile(join(bin, 'tsoperator'), `#!/bin/sh\nexec ${cli} "$@"\n`, { mode: 0o755 });
  await symlink(join((await resolveAssets()).dir, 'kubectl'), join(bin, 'kubectl'));

  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !NOT_THE_READERS.has(name) && !fromNpmRun(name)) env[name] = value;
  }
  // npm waits 5 minutes on a registry request that stalls, and tries it three times: past a
  // block's 10 minutes. A reader would press Ctrl-C and run it again; at 30 s, npm does that itself.
  env['npm_config_fetch_timeout'] = '30000';
  env['PATH'] = [bin, dirname(process.execPath), process.env['PATH'] ?? ''].join(':');
  return env;
}
