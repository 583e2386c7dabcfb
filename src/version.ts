import { readFileSync } from 'node:fs';

/** The version of this tsoperator package, read from its package.json. */
export function tsoperatorVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}
