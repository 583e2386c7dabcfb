import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from './process-alive.ts';

/**
 * A lock between processes on one machine: a folder made with mkdir (atomic) holding the owner's
 * pid. A lock whose owner has died is taken over, so a killed build never blocks the next one.
 */
export async function withFileLock<T>(lockDir: string, work: () => Promise<T>): Promise<T> {
  await acquire(lockDir);
  try {
    return await work();
  } finally {
    await rm(lockDir, { recursive: true, force: true });
  }
}

async function acquire(lockDir: string): Promise<void> {
  for (;;) {
    try {
      await mkdir(lockDir, { recursive: false });
      await writeFile(join(lockDir, 'pid'), String(process.pid));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (!(await ownerAlive(lockDir))) {
      await rm(lockDir, { recursive: true, force: true });
      continue;
    }
    await sleep(500);
  }
}

async function ownerAlive(lockDir: string): Promise<boolean> {
  let pid: number;
  try {
    pid = Number(await readFile(join(lockDir, 'pid'), 'utf8'));
  } catch {
    // The owner made the folder but has not written its pid yet.
    return true;
  }
  return Number.isInteger(pid) && pid > 0 && isAlive(pid);
}
