import { rmdir } from 'node:fs/promises';
import { join, posix } from 'node:path';

/**
 * Removes the folders that the removal of `removed` (project-relative paths) left empty, deepest
 * first up to the project root, so that a deletion leaves no empty folder a scaffold made.
 */
export async function removeEmptyFolders(root: string, removed: readonly string[]): Promise<void> {
  const folders = new Set<string>();
  for (const path of removed) {
    for (let dir = posix.dirname(path); dir !== '.'; dir = posix.dirname(dir)) folders.add(dir);
  }
  const deepestFirst = [...folders].sort((a, b) => b.split('/').length - a.split('/').length);
  for (const folder of deepestFirst) {
    try {
      await rmdir(join(root, folder));
    } catch {
      // Not empty (the user's files, or another kind's), or already gone: it stays as it is.
    }
  }
}
