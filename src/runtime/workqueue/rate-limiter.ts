/**
 * Decides how long a key waits before it is queued again after a failure, as client-go's
 * `TypedRateLimiter`. Durations are milliseconds.
 */
export interface RateLimiter<K extends string = string> {
  /** The delay before `key` is queued again; counts one more requeue of it. */
  when(key: K): number;
  /** Stops tracking `key`: its next failure starts over at the first delay. */
  forget(key: K): void;
  /** How many times `key` has been requeued since it was last forgotten. */
  numRequeues(key: K): number;
}
