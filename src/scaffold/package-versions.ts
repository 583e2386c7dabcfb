import { readFile } from 'node:fs/promises';
import { packageJsonPath } from './package-paths.ts';
import { tsoperatorDependency } from './tsoperator-dependency.ts';

/**
 * The version ranges a generated project depends on, taken from tsoperator's own package.json so
 * that the project uses what its rendered runtime was built and tested against; tsoperator's own
 * spec as {@link tsoperatorDependency} decides it (`override`: `init --tsoperator-dependency`).
 */
export async function packageVersions(override?: string): Promise<Record<string, string>> {
  const pkg = JSON.parse(await readFile(packageJsonPath(), 'utf8')) as {
    version: string;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const tsoperator = tsoperatorDependency(pkg.version, override).spec;
  return { ...pkg.devDependencies, ...pkg.dependencies, tsoperator };
}
