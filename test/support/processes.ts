import { isAlive } from '../../src/envtest/process-alive.ts';

/** Waits until none of `pids` is alive, or `timeoutMs` passes; returns those still alive. */
export async function waitForExit(pids: readonly number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = pids.filter(isAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    alive = alive.filter(isAlive);
  }
  return alive;
}
