import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** What never belongs to a project's sources: installed packages, builds, git's own folder. */
const NOT_PROJECT_FILES: ReadonlySet<string> = new Set(['node_modules', 'dist', '.git']);

/** Every file under `root`, relative with '/' separators, sorted; an absent folder has none. */
export async function folderFiles(root: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(root, { recursive: true, withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .filter((path) => !path.split('/').some((part) => NOT_PROJECT_FILES.has(part)))
    .sort();
}
