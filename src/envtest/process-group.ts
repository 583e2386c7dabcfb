/**
 * Sends `signal` to the process group that `pid` leads (a child spawned detached), so the processes
 * it started go too; to `pid` alone when it leads none. False when neither exists any more.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    try {
      process.kill(pid, signal);
      return true;
    } catch {
      return false;
    }
  }
}
