import { readFileSync } from 'node:fs';

/*
 * Which process a pid names. A pid is reused once its process is gone, so a pid alone cannot tell a
 * lock's dead owner from the unrelated process that got its number; the pid and the start time
 * together can. Linux gives both in /proc; elsewhere these answer undefined and callers fall back
 * to the pid alone.
 */

/**
 * When process `pid` started, in clock ticks since boot (field 22 of /proc/<pid>/stat); undefined
 * when the process is gone or there is no /proc.
 */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 is the command name in parentheses, which may hold spaces: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** The command line of process `pid`, for messages; undefined when it cannot be read. */
export function processCommand(pid: number): string | undefined {
  try {
    const words = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return words.length > 0 ? words.join(' ') : undefined;
  } catch {
    return undefined;
  }
}
