import { mkdir, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from './cli.ts';

/**
 * Gives a project generated in `dir` this checkout's installed packages as its node_modules, and
 * this checkout as its `tsoperator` (whose `tsoperator/envtest` is the build in dist/): enough to
 * type-check, lint and run it without an npm install.
 */
export async function linkCheckoutPackages(dir: string): Promise<void> {
  const modules = join(dir, 'node_modules');
  await mkdir(modules);
  for (const name of await readdir(join(repoRoot, 'node_modules'))) {
    await symlink(join(repoRoot, 'node_modules', name), join(modules, name));
  }
  await symlink(repoRoot, join(modules, 'tsoperator'), 'dir');
}
