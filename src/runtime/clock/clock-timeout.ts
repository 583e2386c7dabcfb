import { type Clock, systemClock } from './clock.ts';

/** A deadline on a clock: `signal` aborts when it passes, unless `clear` came first. */
export interface ClockTimeout {
  readonly signal: AbortSignal;
  /** Drops the timer; `signal` then never aborts. Call it once the bounded work is over. */
  clear(): void;
}

/**
 * `AbortSignal.timeout` on an injected clock: `signal` aborts `ms` from now, with `reason()` as
 * its reason. The timer's firing is the deadline, not a later reading of the clock, which a timer
 * firing a little early could leave short of it.
 *
 * @example
 * ```ts
 * const timeout = clockTimeout(clock, 30_000, () => new Error('too slow'));
 * try {
 *   await work(timeout.signal);
 * } finally {
 *   timeout.clear();
 * }
 * ```
 */
/**
 * The reason the inner timer is aborted with when cleared. `abort()` without one builds a
 * DOMException, stack trace included: with a deadline on every request, that was 4 % of an
 * operator's CPU.
 */
const CLEARED = new Error('timeout cleared');

export function clockTimeout(clock: Clock, ms: number, reason?: () => unknown): ClockTimeout {
  const expiry = new AbortController();
  if (clock === systemClock) {
    // A plain timer where no clock is injected: a deadline on every request made the sleep's
    // promise, listener and abort 2 % of an operator's CPU.
    const timer = setTimeout(() => expiry.abort(reason?.()), Math.max(0, ms));
    return { signal: expiry.signal, clear: () => clearTimeout(timer) };
  }
  const timer = new AbortController();
  void clock.sleep(ms, timer.signal).then(() => {
    if (!timer.signal.aborted) expiry.abort(reason?.());
  });
  return { signal: expiry.signal, clear: () => timer.abort(CLEARED) };
}
