import { readFileSync } from 'node:fs';

/**
 * The peak resident set (VmHWM) in bytes of a running process, or of the largest of it and its
 * descendants, so that an operator started through a wrapper (`npm start`) is measured by the
 * process doing the work. Undefined once the process has exited.
 */
export function peakRss(pid: number): number | undefined {
  return largestOfTree(pid, 'VmHWM');
}

/**
 * The anonymous part of the resident set now (RssAnon) in bytes, of the process or the largest of
 * its descendants: the memory a container's limit cannot reclaim, where the pages of the program's
 * own files (RssFile) can be dropped and read again. The kernel keeps no peak of it, so callers
 * sample it. Undefined once the process has exited.
 */
export function anonymousRss(pid: number): number | undefined {
  return largestOfTree(pid, 'RssAnon');
}

function largestOfTree(pid: number, field: 'VmHWM' | 'RssAnon'): number | undefined {
  const own = statusField(pid, field);
  if (own === undefined) return undefined;
  return Math.max(own, ...childrenOf(pid).map((child) => largestOfTree(child, field) ?? 0));
}

function statusField(pid: number, field: string): number | undefined {
  const status = readOrUndefined(`/proc/${pid}/status`);
  const kib = status?.match(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm'))?.[1];
  return kib === undefined ? undefined : Number(kib) * 1024;
}

function childrenOf(pid: number): number[] {
  const children = readOrUndefined(`/proc/${pid}/task/${pid}/children`) ?? '';
  return children.split(' ').filter(Boolean).map(Number);
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
