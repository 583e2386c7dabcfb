import { type Clock, systemClock } from '../clock/clock.ts';
import type { RateLimiter } from './rate-limiter.ts';

export interface BucketRateLimiterOptions {
  /** Tokens added per second: the sustained rate of requeues. Default: 10. */
  qps?: number;
  /** Bucket size: how many requeues may pass at once after a quiet time. Default: 100. */
  burst?: number;
  /** Default: the system clock. */
  clock?: Clock;
}

/**
 * One token bucket for all keys, bounding the overall requeue rate. Each `when` reserves a token;
 * when none is left it returns the wait until its token exists (tokens go into debt, so waits of
 * successive calls grow by 1/qps each), as golang.org/x/time/rate's `Reserve`. Refills are measured
 * on the monotonic clock: a wall-clock step neither stalls the bucket nor fills it at once.
 */
export class BucketRateLimiter<K extends string = string> implements RateLimiter<K> {
  readonly #msPerToken: number;
  readonly #burst: number;
  readonly #clock: Clock;
  #tokens: number;
  #updatedAt: number;

  constructor(options: BucketRateLimiterOptions = {}) {
    this.#msPerToken = 1000 / (options.qps ?? 10);
    this.#burst = options.burst ?? 100;
    this.#clock = options.clock ?? systemClock;
    this.#tokens = this.#burst;
    this.#updatedAt = this.#clock.monotonic();
  }

  when(): number {
    const now = this.#clock.monotonic();
    this.#tokens = Math.min(this.#burst, this.#tokens + (now - this.#updatedAt) / this.#msPerToken);
    this.#updatedAt = now;
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : -this.#tokens * this.#msPerToken;
  }

  forget(): void {
    // The bucket is shared by all keys: there is nothing per key to forget.
  }

  numRequeues(): number {
    return 0;
  }
}
