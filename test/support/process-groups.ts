import { spawn, type ChildProcessByStdio, type SpawnOptions } from 'node:child_process';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Reaper } from '../../src/envtest/process.ts';

/** The process groups this test process leads and has not seen end. */
const groups = new Set<number>();

/**
 * Kills the groups still running should this test process die (a failed assertion that exits, a
 * Ctrl-C, a SIGKILL): a watchdog process that outlives it, the one the control plane uses. A
 * control plane a group runs is stopped by the group's SIGTERM, or else by its own reaper.
 */
let reaper: Reaper | undefined;

/**
 * Spawns `command` as the leader of a new process group, as a shell starts a job: a signal sent to
 * the group (Ctrl-C's SIGINT) reaches every process the command starts. stdin is /dev/null;
 * stdout and stderr are piped.
 */
export function spawnGroup(
  command: string,
  args: readonly string[],
  options: Pick<SpawnOptions, 'cwd' | 'env'>,
): ChildProcessByStdio<null, Readable, Readable> {
  // Up before the first group is, so that no group runs unwatched while the watchdog starts.
  reaper ??= new Reaper();
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid !== undefined) {
    groups.add(child.pid);
    reaper.watchProcess(child.pid);
  }
  return child;
}

/**
 * Whether any process of the group is left; a group found empty is forgotten, for its number may
 * soon lead another process's group.
 */
export function groupAlive(group: number): boolean {
  if (!groups.has(group)) return false;
  if (!signalZero(group)) {
    groups.delete(group);
    reaper?.forgetProcess(group);
    return false;
  }
  return true;
}

function signalZero(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops a group as a terminal's Ctrl-C does, SIGINT to all of it, then SIGKILL to what is left
 * after `graceMs`; resolves when none of it is left.
 */
export async function stopGroup(group: number, graceMs: number): Promise<void> {
  signal(group, 'SIGINT');
  const deadline = Date.now() + graceMs;
  while (groupAlive(group) && Date.now() < deadline) await sleep(100);
  await killGroup(group);
}

/** Kills whatever is left of a group (a job a block left behind) and waits until it is gone. */
export async function killGroup(group: number): Promise<void> {
  signal(group, 'SIGKILL');
  const deadline = Date.now() + 10_000;
  while (groupAlive(group)) {
    if (Date.now() > deadline) throw new Error(`process group ${group} is still there 10 s after SIGKILL`);
    await sleep(50);
  }
}

/** Signals a group this process leads and has not seen end, never a number since reused. */
function signal(group: number, name: NodeJS.Signals): void {
  if (!groups.has(group)) return;
  try {
    process.kill(-group, name);
  } catch {
    // The group is gone already.
  }
}
