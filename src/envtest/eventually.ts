import { setTimeout as sleep } from 'node:timers/promises';

/** How long {@link eventually} and {@link consistently} poll, and how often. */
export interface PollOptions {
  /** `eventually`: how long to retry before failing; `consistently`: how long it must hold. Default: 10 s / 1 s. */
  readonly timeoutMs?: number;
  /** The pause between two tries. Default: 100 ms. */
  readonly intervalMs?: number;
}

/**
 * Runs `assertion` until it stops throwing, and returns what it returned: Gomega's `Eventually`, for
 * state that converges through the API server or a cache. Fails with the last error after
 * `timeoutMs` (default 10 s).
 *
 * @example
 * ```ts
 * await eventually(async () => {
 *   const job = await client.get(JobKind, key);
 *   assert.equal(job?.status?.succeeded, 1);
 * });
 * ```
 */
export async function eventually<T>(assertion: () => T | Promise<T>, options: PollOptions = {}): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 100 } = options;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      return await assertion();
    } catch (err) {
      if (performance.now() >= deadline) {
        throw new Error(`still failing after ${String(timeoutMs)} ms: ${errorText(err)}`, { cause: err });
      }
    }
    await sleep(intervalMs);
  }
}

/**
 * Runs `assertion` again and again for `timeoutMs` (default 1 s), failing at its first throw:
 * Gomega's `Consistently`, for what must not happen (a Job not created while suspended).
 *
 * @example
 * ```ts
 * await consistently(async () => {
 *   assert.equal((await client.listAll(JobKind, { namespace })).length, 0);
 * });
 * ```
 */
export async function consistently(assertion: () => unknown, options: PollOptions = {}): Promise<void> {
  const { timeoutMs = 1_000, intervalMs = 100 } = options;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    await assertion();
    if (performance.now() >= deadline) return;
    await sleep(intervalMs);
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
