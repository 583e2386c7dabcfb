import type { Clock } from './clock.ts';

interface Sleeper {
  readonly wakeAt: number;
  readonly wake: () => void;
}

/**
 * A Clock that moves only when told to, for deterministic tests of timing logic: `advance(ms)`
 * moves wall and monotonic time and wakes every sleeper whose time has come, `stepWall(ms)` steps
 * only the wall clock (an NTP correction), and `sleepers` tells a test that the code under test
 * has gone idle.
 *
 * @example
 * ```ts
 * const clock = new FakeClock(0);
 * const slept = clock.sleep(1000);
 * clock.advance(1000);
 * await slept;
 * ```
 */
export class FakeClock implements Clock {
  #now: number;
  #monotonic = 0;
  readonly #sleepers = new Set<Sleeper>();

  constructor(start: number = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  monotonic(): number {
    return this.#monotonic;
  }

  /** How many sleeps are pending. */
  get sleepers(): number {
    return this.#sleepers.size;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const sleeper: Sleeper = { wakeAt: this.#monotonic + Math.max(0, ms), wake };
      const onAbort = (): void => wake();
      const sleepers = this.#sleepers;
      function wake(): void {
        sleepers.delete(sleeper);
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      if (ms <= 0) return wake();
      sleepers.add(sleeper);
    });
  }

  /** Moves time forward by `ms` and wakes the sleepers that are due, in wake-up order. */
  advance(ms: number): void {
    this.#now += ms;
    this.#monotonic += ms;
    const due = [...this.#sleepers]
      .filter((s) => s.wakeAt <= this.#monotonic)
      .sort((a, b) => a.wakeAt - b.wakeAt);
    for (const sleeper of due) sleeper.wake();
  }

  /** Steps the wall clock by `ms` (negative: back) without time passing: no sleeper wakes. */
  stepWall(ms: number): void {
    this.#now += ms;
  }
}
