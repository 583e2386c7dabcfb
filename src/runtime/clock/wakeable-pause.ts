import type { Clock } from './clock.ts';

/**
 * The pause of a loop that a change ends early: `wake()` ends the pause in progress, or, when the
 * loop is busy, the next one before it starts, so that a change seen while the loop works is not
 * left for a whole period. The pause's timer goes when it ends, early or not.
 */
export class WakeablePause {
  readonly #clock: Clock;
  #woken = false;
  #pause: AbortController | undefined;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Notes a change. */
  wake(): void {
    this.#woken = true;
    this.#pause?.abort();
  }

  /** Forgets the changes noted so far: the next pause lasts, unless woken again. */
  clear(): void {
    this.#woken = false;
  }

  /** Waits `ms`, or until woken or `signal` aborts; returns at once when woken since the last pause. */
  async pause(ms: number, signal: AbortSignal): Promise<void> {
    if (!this.#woken && !signal.aborted) {
      // Not AbortSignal.any: a dependent signal aborted early stays on the heap (Node keeps it
      // reachable from its source), and a loop's pause is ended by every change it watches.
      const pause = new AbortController();
      const stop = (): void => pause.abort();
      signal.addEventListener('abort', stop, { once: true });
      this.#pause = pause;
      try {
        await this.#clock.sleep(ms, pause.signal);
      } finally {
        this.#pause = undefined;
        signal.removeEventListener('abort', stop);
      }
    }
    this.#woken = false;
  }
}
