import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * When `done` first held (performance.now()), polled every `everyMs` for up to `timeoutMs`;
 * undefined past that. `check` runs after each miss: it throws to end the wait early (the process
 * under test exited).
 */
export async function pollUntil(
  done: () => Promise<boolean>,
  timeoutMs: number,
  check: () => void = () => undefined,
  everyMs = 100,
): Promise<number | undefined> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await done()) return performance.now();
    check();
    await sleep(everyMs);
  }
  return undefined;
}
