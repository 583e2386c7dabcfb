import { setTimeout as sleep } from 'node:timers/promises';
import { isConflict } from './api-error.ts';

/** How {@link retryOnConflict} retries. */
export interface RetryOptions {
  /** Attempts in all, the first included. Default: 5 (client-go's retry.DefaultRetry). */
  readonly steps?: number;
  /** Pause before the second attempt. Default: 10 ms. */
  readonly durationMs?: number;
  /** Each pause is the previous one times this. Default: 1. */
  readonly factor?: number;
  /** Each pause is lengthened by up to this fraction, at random. Default: 0.1. */
  readonly jitter?: number;
  /** Default: Math.random. */
  readonly random?: () => number;
  /** Default: none. */
  readonly signal?: AbortSignal;
}

/**
 * Runs `fn` again while it fails with a Conflict, as client-go's retry.RetryOnConflict with
 * retry.DefaultRetry; `fn` must re-read the object each time. The last Conflict is rethrown.
 *
 * @example
 * ```ts
 * await retryOnConflict(async () => {
 *   const cm = await client.direct().get(ConfigMapKind, key);
 *   if (cm) await client.update({ ...cm, data: { hits: String(Number(cm.data?.hits ?? 0) + 1) } });
 * });
 * ```
 */
export async function retryOnConflict<T>(fn: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const steps = options.steps ?? 5;
  const factor = options.factor ?? 1;
  const jitter = options.jitter ?? 0.1;
  const random = options.random ?? Math.random;
  let pause = options.durationMs ?? 10;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isConflict(err) || attempt >= steps) throw err;
    }
    await sleep(pause * (1 + jitter * random()), undefined, options.signal ? { signal: options.signal } : {});
    pause *= factor;
  }
}
