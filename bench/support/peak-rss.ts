import { readFileSync } from 'node:fs';

/**
 * The peak resident set (VmHWM) in bytes of a running process, or of the largest of it and its
 * descendants, so that an operator started through a wrapper (`npm start`) is measured by the
 * process doing the work. Undefined once the process has exited.
 */
export function peakRss(pid: number): number | undefined {
  const own = vmHwm(pid);
  if (own === undefined) return undefined;
  return Math.max(own, ...childrenOf(pid).map((child) => peakRss(child) ?? 0));
}

function vmHwm(pid: number): number | undefined {
  const status = readOrUndefined(`/proc/${pid}/status`);
  const kib = status?.match(/^VmHWM:\s+(\d+) kB$/m)?.[1];
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
