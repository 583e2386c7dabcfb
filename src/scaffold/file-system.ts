import { mkdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';

/**
 * The file operations an apply needs, as a parameter so that tests can make one of them fail
 * part-way and check that the folder is left as it was.
 */
export interface ApplyFileSystem {
  exists(path: string): Promise<boolean>;
  /** Creates one directory (not its parents). */
  mkdir(path: string): Promise<void>;
  writeFile(path: string, content: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  removeFile(path: string): Promise<void>;
  /** Removes an empty directory. */
  removeDir(path: string): Promise<void>;
}

/** The real file system. */
export const nodeFileSystem: ApplyFileSystem = {
  exists: async (path) => {
    try {
      await stat(path);
      return true;
    } catch {
      return false;
    }
  },
  mkdir: async (path) => {
    await mkdir(path);
  },
  writeFile: (path, content) => writeFile(path, content, 'utf8'),
  rename: (from, to) => rename(from, to),
  removeFile: (path) => rm(path, { force: true }),
  removeDir: (path) => rmdir(path),
};
