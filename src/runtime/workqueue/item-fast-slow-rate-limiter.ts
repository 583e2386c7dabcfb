import type { RateLimiter } from './rate-limiter.ts';

export interface ItemFastSlowRateLimiterOptions {
  /** Delay of the first `maxFastAttempts` requeues of a key. Default: 5 ms. */
  fastDelay?: number;
  /** Delay of every later requeue. Default: 10 s. */
  slowDelay?: number;
  /** How many requeues of a key are fast. Default: 5. */
  maxFastAttempts?: number;
}

/** Per-key: a few quick retries, then slow ones. */
export class ItemFastSlowRateLimiter<K extends string = string> implements RateLimiter<K> {
  readonly #fastDelay: number;
  readonly #slowDelay: number;
  readonly #maxFastAttempts: number;
  readonly #attempts = new Map<K, number>();

  constructor(options: ItemFastSlowRateLimiterOptions = {}) {
    this.#fastDelay = options.fastDelay ?? 5;
    this.#slowDelay = options.slowDelay ?? 10_000;
    this.#maxFastAttempts = options.maxFastAttempts ?? 5;
  }

  when(key: K): number {
    const attempts = (this.#attempts.get(key) ?? 0) + 1;
    this.#attempts.set(key, attempts);
    return attempts <= this.#maxFastAttempts ? this.#fastDelay : this.#slowDelay;
  }

  forget(key: K): void {
    this.#attempts.delete(key);
  }

  numRequeues(key: K): number {
    return this.#attempts.get(key) ?? 0;
  }
}
