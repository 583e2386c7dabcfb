import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
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
   * A file the owner appends to as it works (a sharedProgress file): each time it grows, the wait
   * starts over, so a slow build that still reports is waited for. Default: none.
   */
  progressFile?: string;
  /**
   * How long to wait for a live owner that shows no progress before failing with the lock and the
   * process holding it. Default: 30 minutes, more than a first build of every envtest binary takes.
   */
  timeoutMs?: number;
  /** Ends the wait for the lock with the signal's reason. */
  signal?: AbortSignal;
}

const POLL_MS = 500;
const DEFAULT_TIMEOUT_MS = 30 * 60_000;
/** A lock folder still without an owner after this long was left by an owner that died making it. */
const UNWRITTEN_OWNER_MS = 10_000;
/** A takeover guard older than this was left by a waiter that died taking over (it holds it for ms). */
const ABANDONED_GUARD_MS = 10_000;
/** The file in the lock folder naming its owner: `<pid> <start time>`, written whole by a rename. */
const OWNER_FILE = 'owner';
/** The owner file of locks made by earlier tsoperator versions: the pid alone. */
const LEGACY_PID_FILE = 'pid';

/** Who holds a lock: its pid, and when that process started where the system says (Linux). */
interface LockOwner {
  readonly pid: number;
  readonly startTime: string | undefined;
}

/** Codes of a lock folder made, emptied or removed by another process between two looks. */
const RACE_CODES: readonly string[] = ['EEXIST', 'ENOENT', 'ENOTEMPTY'];

/**
 * A lock between processes on one machine: a folder made with mkdir (atomic) holding the owner's
 * pid and start time. A lock whose owner has died is taken over, so a killed build never blocks the
 * next one, even once another process has been given the dead owner's pid. Takeovers go one at a
 * time, under a guard folder beside the lock, so two waiters that find the same dead owner cannot
 * each remove the lock the other just made. The owner may keep other files in the folder; they go
 * with the lock.
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
    await removeDir(lockDir);
  }
}

async function acquire(lockDir: string, options: FileLockOptions): Promise<void> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let deadline = systemClock.monotonic() + timeoutMs;
  let progressSize = -1;
  for (;;) {
    options.signal?.throwIfAborted();
    if (await tryCreate(lockDir)) return;
    const owner = await readOwner(lockDir);
    if (await isStale(lockDir, owner)) {
      await takeOver(lockDir, owner);
      continue;
    }
    const size = options.progressFile === undefined ? -1 : await fileSize(options.progressFile);
    if (size > progressSize) {
      if (progressSize >= 0) deadline = systemClock.monotonic() + timeoutMs;
      progressSize = size;
    }
    if (systemClock.monotonic() >= deadline) throw waitedTooLong(lockDir, owner, timeoutMs);
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
  // Written aside and renamed in, so a reader finds the whole owner or none.
  const temp = join(lockDir, `${OWNER_FILE}.${randomUUID()}`);
  try {
    await writeFile(temp, `${process.pid} ${processStartTime(process.pid) ?? ''}`);
    await rename(temp, join(lockDir, OWNER_FILE));
    return true;
  } catch (err) {
    if (!isRace(err)) throw err;
    return false;
  }
}

/**
 * Removes a stale lock, if this waiter is the one taking over: under the guard, it looks at the
 * owner again, since another waiter may have removed the stale lock and made its own meanwhile.
 */
async function takeOver(lockDir: string, judged: LockOwner | undefined): Promise<void> {
  const guard = `${lockDir}.takeover`;
  try {
    await mkdir(guard);
  } catch (err) {
    if (!isRace(err)) throw err;
    if ((await ageMs(guard)) > ABANDONED_GUARD_MS) await rmdir(guard).catch(() => undefined);
    return;
  }
  try {
    const owner = await readOwner(lockDir);
    if (sameOwner(owner, judged) && (await isStale(lockDir, owner))) await removeDir(lockDir);
  } finally {
    await rmdir(guard).catch(() => undefined);
  }
}

/** Moves the folder aside, atomically, then deletes it: no one can make a lock in a half-removed one. */
async function removeDir(dir: string): Promise<void> {
  const tombstone = `${dir}.removed-${randomUUID()}`;
  try {
    await rename(dir, tombstone);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  await rm(tombstone, { recursive: true, force: true });
}

/**
 * The owner written in the lock; undefined while the owner made the folder but has not written it.
 * A lock of an earlier tsoperator (sharing the cache with this one) names its owner in a `pid` file
 * alone: that pid is trusted while it lives, as that version trusts it.
 */
async function readOwner(lockDir: string): Promise<LockOwner | undefined> {
  const text =
    (await readText(join(lockDir, OWNER_FILE))) ?? (await readText(join(lockDir, LEGACY_PID_FILE)));
  if (text === undefined || text.trim() === '') return undefined;
  const [pid = '', startTime = ''] = text.split(' ');
  return { pid: Number(pid), startTime: startTime === '' ? undefined : startTime };
}

function sameOwner(a: LockOwner | undefined, b: LockOwner | undefined): boolean {
  return a?.pid === b?.pid && a?.startTime === b?.startTime;
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
    `Waited ${formatDuration(timeoutMs)} without progress for the lock ${lockDir}, held by ${holder}. If that process is stuck, stop it or remove ${lockDir}, then try again.`,
  );
}

function formatDuration(ms: number): string {
  return ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
}

function isRace(err: unknown): boolean {
  return RACE_CODES.includes((err as NodeJS.ErrnoException).code ?? '');
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The file's size; 0 when it is not there yet. */
async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
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
