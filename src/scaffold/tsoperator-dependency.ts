import { dirname, sep } from 'node:path';
import { packageJsonPath } from './package-paths.ts';

/** Where a generated project's package.json takes tsoperator from. */
export interface TsoperatorDependency {
  /** The npm spec: `^0.1.0` from the registry, or `file:<folder>` for a checkout. */
  readonly spec: string;
  /** The checkout this tsoperator runs from, when it is not an installed package. */
  readonly checkout?: string;
}

/**
 * The tsoperator a project depends on. Installed from npm (by npx, globally, or as a project's
 * devDependency), tsoperator lives in a `node_modules` folder and the project takes `^version` from
 * the registry. Run from a checkout (`node <checkout>/bin/tsoperator.js`, or `npm link`), that version
 * may not be published: the project then takes the checkout itself (`file:`), which `npm install`
 * links, so that it installs and runs the CLI, runtime and envtest the project was made with.
 * `override`, from `init --tsoperator-dependency`, wins over both.
 *
 * @example
 * ```ts
 * const { spec } = tsoperatorDependency('0.1.0'); // '^0.1.0' when installed from npm
 * ```
 */
export function tsoperatorDependency(
  version: string,
  override?: string,
  packageJson: string = packageJsonPath(),
): TsoperatorDependency {
  if (override !== undefined) return { spec: override };
  const root = dirname(packageJson);
  if (root.split(sep).includes('node_modules')) return { spec: `^${version}` };
  return { spec: `file:${root}`, checkout: root };
}
