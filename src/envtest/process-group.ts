/**
 * Sends `signal` to the process group that `pid` leads (a child spawned detached), so the processes
 * it started go too; to `pid` alone when it leads none. A process already gone is no error.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone already.
    }
  }
}
