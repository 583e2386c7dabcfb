import { readFileSync } from 'node:fs';

// Linux reports process times in clock ticks of USER_HZ, which is 100 on every platform Node runs on.
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds a running process has used so far; undefined once it has exited. */
export function processCpuSeconds(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are
  // the 14th and 15th fields of the line, so the 12th and 13th after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}
