/**
 * True while a process (or, for a negative id, a process group) exists: signal 0 probes without
 * signalling. EPERM means it exists but belongs to someone else.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
