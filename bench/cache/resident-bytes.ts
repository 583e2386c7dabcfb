import { readFileSync } from 'node:fs';

/** A memory figure of this process from /proc/self/status (VmRSS now, VmHWM its peak), in bytes. */
export function residentBytes(field: 'VmRSS' | 'VmHWM'): number {
  const kib = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(
    readFileSync('/proc/self/status', 'utf8'),
  )?.[1];
  if (kib === undefined) throw new Error(`no ${field} in /proc/self/status`);
  return Number(kib) * 1024;
}
