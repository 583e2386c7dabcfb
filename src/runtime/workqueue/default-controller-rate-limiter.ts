import { type Clock, systemClock } from '../clock/clock.ts';
import { BucketRateLimiter } from './bucket-rate-limiter.ts';
import { ItemExponentialFailureRateLimiter } from './item-exponential-failure-rate-limiter.ts';
import { MaxOfRateLimiter } from './max-of-rate-limiter.ts';
import type { RateLimiter } from './rate-limiter.ts';

/**
 * The limiter controllers use unless told otherwise, as client-go's `DefaultControllerRateLimiter`:
 * the longer of a per-key exponential backoff (5 ms doubling to 1000 s) and an overall token bucket
 * (10 qps, burst 100).
 */
export function defaultControllerRateLimiter<K extends string = string>(
  clock: Clock = systemClock,
): RateLimiter<K> {
  return new MaxOfRateLimiter<K>(
    new ItemExponentialFailureRateLimiter<K>({ baseDelay: 5, maxDelay: 1_000_000 }),
    new BucketRateLimiter<K>({ qps: 10, burst: 100, clock }),
  );
}
