/**
 * Time as the runtime sees it. Components take a Clock so that tests drive time with a FakeClock
 * instead of sleeping, as client-go's components take a `clock.Clock`.
 *
 * Two readings, as Go's time.Time carries both: `now()` is wall time, for what is written down
 * (timestamps in objects, logs); `monotonic()` never steps, for every duration, deadline and
 * expiry, so an NTP correction or a VM resume cannot shorten a lease or stall a queue.
 */
export interface Clock {
  /** Wall time: milliseconds since the epoch. May step back or forward. */
  now(): number;
  /** Milliseconds since an arbitrary origin, never going back: measure durations with this. */
  monotonic(): number;
  /** Resolves after `ms` milliseconds, or at once when `signal` aborts (it never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock: Date.now, performance.now and timers (Node's timers are monotonic). */
export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
      function done(): void {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
    }),
};
