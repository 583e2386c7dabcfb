import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The runtime's API types a new body may use (see src/runtime/api/types.ts). */
const RUNTIME_TYPES = ['int32', 'Quantity', 'IntOrString', 'Time', 'Duration'];

/**
 * Replaces the body of `export interface <name> { ... }` in a project's types file, as a user
 * editing the scaffolded types does, and imports the runtime's API types the new body uses;
 * `imports` are added at the top.
 */
export async function replaceInterface(
  dir: string,
  typesPath: string,
  name: string,
  body: string,
  imports: readonly string[] = [],
): Promise<void> {
  const path = join(dir, typesPath);
  const text = await readFile(path, 'utf8');
  const start = text.indexOf(`export interface ${name} {`);
  const end = text.indexOf('\n}\n', start);
  if (start < 0 || end < 0) throw new Error(`${typesPath} has no interface ${name}`);
  let edited = `${text.slice(0, start)}export interface ${name} {\n${body.trim()}\n${text.slice(end + 1)}`;
  for (const name of RUNTIME_TYPES) {
    if (new RegExp(`\\b${name}\\b`).test(body) && !new RegExp(`type ${name}\\b`).test(edited)) {
      edited = edited.replace('type Condition, ', `type Condition, type ${name}, `);
    }
  }
  const firstImport = edited.indexOf('import ');
  edited = `${edited.slice(0, firstImport)}${imports.map((line) => `${line}\n`).join('')}${edited.slice(firstImport)}`;
  await writeFile(path, edited);
}
