import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `probe` every 100 ms until it returns a value other than undefined, and returns it; fails
 * naming `what` after `timeoutMs`. For state that converges through the API server.
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

/** `eventually` for a yes/no condition: waits until `check` holds. */
export async function eventuallyTrue(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  await eventually(async () => ((await check()) ? true : undefined), what, timeoutMs);
}
