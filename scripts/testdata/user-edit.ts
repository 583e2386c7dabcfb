import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Replaces text in a file of a sample project, as its user edits a scaffolded file: each `from`
 * must be there (every occurrence is replaced), so that a scaffold that changed shape stops the
 * generation with the file and text to look at instead of writing a sample nobody edited.
 */
export async function userEdit(
  project: string,
  path: string,
  replacements: readonly (readonly [from: string, to: string])[],
): Promise<void> {
  const file = join(project, path);
  let text = await readFile(file, 'utf8');
  for (const [from, to] of replacements) {
    if (!text.includes(from)) throw new Error(`${path} no longer has the text this edit replaces:\n${from}`);
    text = text.replaceAll(from, to);
  }
  await writeFile(file, text);
}

/** Adds text at the end of a file of a sample project, as its user adds code below the scaffold's. */
export async function appendTo(project: string, path: string, text: string): Promise<void> {
  const file = join(project, path);
  await writeFile(file, `${await readFile(file, 'utf8')}${text}`);
}
