import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TsoperatorError } from '../errors.ts';
import { systemClock } from '../runtime/clock/clock.ts';
import { isAlive } from './process-alive.ts';
import { processCommand, processStartTime } from './process-identity.ts';

export interface FileLockOptions {
  /**
   * Called at each look (every 500 ms) while a live process holds the lock, with its pid (undefined
   * while the owner has not written it yet). Default: nothing.
   */
  onBusy?: (ownerPid: number | undefined) => void | Promise<void>;
  /**
   * How long to wait for a live owner before failing with the lock and the process holding it.
   * Default: 30 minutes, more than a first build of every envtest binary takes.
   */
  timeoutMs?: number;
  /** Ends the wait for the lock with the signal's reason. */
  signal?: AbortSignal;
}

const POLL_MS = 500;
const DEFAULT_TIMEOUT_MS = 30 * 60_000;
/** A lock folder still without a pid after this long was left by an owner that died making it. */
const UNWRITTEN_OWNER_MS = 10_000;

/** Who holds a lock: its pid, and when that process started where the system says (Linux). */
interface LockOwner {
  readonly pid: number;
  readonly startTime: string | undefined;
}

/**
 * A lock between processes on one machine: a folder made with mkdir (atomic) holding the owner's
 * pid and start time. A lock whose owner has died is taken over, so a killed build never blocks the
 * next one, even once another process has been given the dead owner's pid. The owner may keep other
 * files in the folder; they go with the lock.
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
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    options.signal?.throwIfAborted();
    if (await tryCreate(lockDir)) return;
    const owner = await readOwner(lockDir);
    if (await isStale(lockDir, owner)) {
      await rm(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() >= deadline) throw waitedTooLong(lockDir, owner, timeoutMs);
    await options.onBusy?.(owner?.pid);
    await systemClock.sleep(POLL_MS, options.signal);
  }
}

/** Makes the lock folder and writes this process in it; false when another process has it. */
async function tryCreate(lockDir: string): Promise<boolean> {
  try {
    await mkdir(lockDir, { recursive: false });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  }
  // The start time goes first, so a reader that finds the pid finds it too.
  const startTime = processStartTime(process.pid);
  if (startTime !== undefined) await writeFile(join(lockDir, 'start-time'), startTime);
  await writeFile(join(lockDir, 'pid'), String(process.pid));
  return true;
}

/** The owner written in the lock; undefined while the owner made the folder but has not written its pid. */
async function readOwner(lockDir: string): Promise<LockOwner | undefined> {
  const pid = await readText(join(lockDir, 'pid'));
  // An empty file is a pid being written, not a dead owner.
  if (pid === undefined || pid === '') return undefined;
  return { pid: Number(pid), startTime: await readText(join(lockDir, 'start-time')) };
}

/**
 * True when the owner is gone: its pid names no process, or a process that started at another time
 * than the owner did (the pid was reused). Where start times are unknown, a live pid is trusted.
 */
async function isStale(lockDir: string, owner: LockOwner | undefined): Promise<boolean> {
  if (owner === undefined) return (await ageMs(lockDir)) > UNWRITTEN_OWNER_MS;
  if (!Number.isInteger(owner.pid) || owner.pid <= 0 || !isAlive(owner.pid)) return true;
  const startTime = processStartTime(owner.pid);
  return owner.startTime !== undefined && startTime !== undefined && startTime !== owner.startTime;
}

function waitedTooLong(lockDir: string, owner: LockOwner | undefined, timeoutMs: number): TsoperatorError {
  const command = owner === undefined ? undefined : processCommand(owner.pid);
  const holder =
    owner === undefined
      ? 'a process that has not written its pid'
      : `process ${owner.pid}${command === undefined ? '' : ` (${command})`}`;
  return new TsoperatorError(
    `Waited ${formatDuration(timeoutMs)} for the lock ${lockDir}, held by ${holder}. If that process is stuck, stop it or remove ${lockDir}, then try again.`,
  );
}

function formatDuration(ms: number): string {
  return ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** How long ago the folder last changed; 0 when it is gone (the next look takes it). */
async function ageMs(path: string): Promise<number> {
  try {
    return Date.now() - (await stat(path)).mtimeMs;
  } catch {
    return 0;
  }
}
