import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** Every file and folder under `root`: path → content (`<dir>` for folders), to compare before/after. */
export async function snapshotFolder(root: string): Promise<Map<string, string>> {
  const snapshot = new Map<string, string>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    snapshot.set(relative(root, path), entry.isDirectory() ? '<dir>' : await readFile(path, 'utf8'));
  }
  return snapshot;
}
