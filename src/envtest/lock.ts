import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from './process-alive.ts';

export interface FileLockOptions {
  /**
   * Called at each look (every 500 ms) while a live process holds the lock, with its pid (undefined
   * while the owner has not written it yet). Default: nothing.
   */
  onBusy?: (ownerPid: number | undefined) => void | Promise<void>;
}

/**
 * A lock between processes on one machine: a folder made with mkdir (atomic) holding the owner's
 * pid. A lock whose owner has died is taken over, so a killed build never blocks the next one.
 * The owner may keep other files in the folder; they go with the lock.
 */
export async function withFileLock<T>(
  lockDir: string,
  work: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  await acquire(lockDir, options);
  try {
    return await work();
  } finally {
    await rm(lockDir, { recursive: true, force: true });
  }
}

async function acquire(lockDir: string, options: FileLockOptions): Promise<void> {
  for (;;) {
    try {
      await mkdir(lockDir, { recursive: false });
      await writeFile(join(lockDir, 'pid'), String(process.pid));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = await ownerPid(lockDir);
    if (owner !== undefined && !(Number.isInteger(owner) && owner > 0 && isAlive(owner))) {
      await rm(lockDir, { recursive: true, force: true });
      continue;
    }
    await options.onBusy?.(owner);
    await sleep(500);
  }
}

/** The pid written in the lock; undefined while the owner made the folder but has not written it yet. */
async function ownerPid(lockDir: string): Promise<number | undefined> {
  try {
    const text = await readFile(join(lockDir, 'pid'), 'utf8');
    // An empty file is a pid being written, not a dead owner.
    return text === '' ? undefined : Number(text);
  } catch {
    return undefined;
  }
}
