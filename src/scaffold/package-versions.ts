import { readFile } from 'node:fs/promises';
import { packageJsonPath } from './package-paths.ts';

/**
 * The version ranges a generated project depends on, taken from tsoperator's own package.json so
 * that the project uses what its rendered runtime was built and tested against.
 */
export async function packageVersions(): Promise<Record<string, string>> {
  const pkg = JSON.parse(await readFile(packageJsonPath(), 'utf8')) as {
    version: string;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  return { ...pkg.devDependencies, ...pkg.dependencies, tsoperator: `^${pkg.version}` };
}
