import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits until `check` holds, polling every 20 ms; fails with `what` after `timeoutMs`. For
 * conditions reached asynchronously (a watch delivering), not for asserting on speed: the
 * timeout is generous on purpose.
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Still not true after ${timeoutMs / 1000} s: ${what}`);
    await sleep(20);
  }
}
