import type { RateLimiter } from './rate-limiter.ts';

export interface ItemExponentialFailureRateLimiterOptions {
  /** Delay after the first failure, doubled on each further one. Default: 5 ms. */
  baseDelay?: number;
  /** Upper bound of the delay. Default: 1000 s. */
  maxDelay?: number;
}

/** Per-key exponential backoff: `baseDelay * 2^failures`, capped at `maxDelay`. */
export class ItemExponentialFailureRateLimiter<K extends string = string> implements RateLimiter<K> {
  readonly #baseDelay: number;
  readonly #maxDelay: number;
  readonly #failures = new Map<K, number>();

  constructor(options: ItemExponentialFailureRateLimiterOptions = {}) {
    this.#baseDelay = options.baseDelay ?? 5;
    this.#maxDelay = options.maxDelay ?? 1_000_000;
  }

  when(key: K): number {
    const failures = this.#failures.get(key) ?? 0;
    this.#failures.set(key, failures + 1);
    // 2 ** failures overflows to Infinity long after it passed maxDelay, and min() handles that.
    return Math.min(this.#baseDelay * 2 ** failures, this.#maxDelay);
  }

  forget(key: K): void {
    this.#failures.delete(key);
  }

  numRequeues(key: K): number {
    return this.#failures.get(key) ?? 0;
  }
}
