import { fileURLToPath } from 'node:url';

/**
 * Folders of the tsoperator package itself. This file sits at the same depth in src/ and in dist/,
 * so the same relative URLs work from the sources (tests) and from the built CLI.
 */
const PACKAGE_ROOT = new URL('../../', import.meta.url);

/** The ejs templates of one generator: `templates/<generator>/`. */
export function templatesDir(generator: string): string {
  return fileURLToPath(new URL(`templates/${generator}/`, PACKAGE_ROOT));
}

/** The runtime library's sources, rendered into every project (shipped with the package). */
export function runtimeSourceDir(): string {
  return fileURLToPath(new URL('src/runtime/', PACKAGE_ROOT));
}

/** The tsoperator package.json, for the versions a generated project depends on. */
export function packageJsonPath(): string {
  return fileURLToPath(new URL('package.json', PACKAGE_ROOT));
}
