import type { RateLimiter } from './rate-limiter.ts';

/** Combines limiters: the longest of their delays, the most of their requeue counts. */
export class MaxOfRateLimiter<K extends string = string> implements RateLimiter<K> {
  readonly #limiters: readonly RateLimiter<K>[];

  constructor(...limiters: RateLimiter<K>[]) {
    this.#limiters = limiters;
  }

  when(key: K): number {
    // Every limiter is asked, so each one counts the requeue.
    let delay = 0;
    for (const limiter of this.#limiters) delay = Math.max(delay, limiter.when(key));
    return delay;
  }

  forget(key: K): void {
    for (const limiter of this.#limiters) limiter.forget(key);
  }

  numRequeues(key: K): number {
    let requeues = 0;
    for (const limiter of this.#limiters) requeues = Math.max(requeues, limiter.numRequeues(key));
    return requeues;
  }
}
