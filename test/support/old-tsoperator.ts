import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { repoRoot } from './cli.ts';

/**
 * The commit an "old" tsoperator is built from: the one before the generated main.ts named the
 * --kubeconfig flag in its error, and before the manager's memory figures in manager.yaml, so that
 * an update from it has template changes to bring.
 */
export const OLD_COMMIT = 'dc36e0c';

/** The version the old tsoperator says it is, older than this checkout's. */
export const OLD_VERSION = '0.0.9';

/**
 * tsoperator as it was at OLD_COMMIT, versioned OLD_VERSION, built in `root/tsoperator-old`: a
 * package folder whose CLI runs (with this checkout's node_modules, which it shares the
 * dependencies of). Taken from the repository's history with `git archive`, which registers no
 * worktree in the repository.
 */
export async function buildOldTsoperator(root: string): Promise<string> {
  const dir = join(root, 'tsoperator-old');
  await mkdir(dir);
  const archive = join(root, 'tsoperator-old.tar');
  await execa('git', ['archive', '--output', archive, OLD_COMMIT], { cwd: repoRoot });
  await execa('tar', ['-xf', archive, '-C', dir]);
  const packageJson = join(dir, 'package.json');
  const pkg = JSON.parse(await readFile(packageJson, 'utf8')) as Record<string, unknown>;
  await writeFile(packageJson, `${JSON.stringify({ ...pkg, version: OLD_VERSION }, null, 2)}\n`);
  await symlink(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await execa(
    process.execPath,
    [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: dir,
    },
  );
  return dir;
}
