import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { packageJsonPath } from './package-paths.ts';

/** Where a generated project's package.json takes tsoperator from. */
export interface TsoperatorDependency {
  /** The npm spec: `^0.1.0` from the registry, or `file:<folder>` for a checkout. */
  readonly spec: string;
  /** The checkout this tsoperator runs from, when it is not an installed package. */
  readonly checkout?: string;
}

/** In a checkout beside package.json, and left out of the published package (`files`). */
const CHECKOUT_ONLY_FILE = 'tsconfig.build.json';

/**
 * The tsoperator a project depends on. Installed as a package (by npx, globally, as a project's
 * devDependency, or in any other package cache), tsoperator has no build configuration beside its
 * package.json, and the project takes `^version` from the registry. Run from a checkout (`node
 * <checkout>/bin/tsoperator.js`, or `npm link`), that version may not be published: the project
 * then takes the checkout itself (`file:`, with `/` on every platform, as npm reads it), which `npm
 * install` links, so that it installs and runs the CLI, runtime and envtest it was made with.
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
  if (!existsSync(join(root, CHECKOUT_ONLY_FILE))) return { spec: `^${version}` };
  return { spec: `file:${root.split(sep).join('/')}`, checkout: root };
}
