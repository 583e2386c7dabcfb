import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runtimeSourceFiles } from './runtime-files.ts';

const BARE_IMPORT = /(?:from|import\()\s*'([^'.][^']*)'/g;

/**
 * The npm packages the runtime library imports (`@kubernetes/client-node`, `prom-client`, ...), read
 * from its sources, so that a generated project depends on exactly what its rendered runtime needs,
 * at the ranges tsoperator itself was tested with (`versions`).
 */
export async function runtimeDependencies(
  sourceDir: string,
  versions: Readonly<Record<string, string>>,
): Promise<Record<string, string>> {
  const names = new Set<string>();
  for (const file of await runtimeSourceFiles(sourceDir)) {
    const text = await readFile(join(sourceDir, file), 'utf8');
    for (const match of text.matchAll(BARE_IMPORT)) {
      const specifier = match[1] ?? '';
      if (!specifier.startsWith('node:')) names.add(packageName(specifier));
    }
  }
  return Object.fromEntries([...names].sort().map((name) => [name, versionOf(name, versions)]));
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

function versionOf(name: string, versions: Readonly<Record<string, string>>): string {
  const range = versions[name];
  // The runtime is tested inside tsoperator, so each package it imports is one of tsoperator's own.
  if (range === undefined)
    throw new Error(`the runtime imports ${name}, which is not a dependency of tsoperator`);
  return range;
}
