import type { Clock } from './clock.ts';
import { linkedSignal } from './linked-signal.ts';

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
      // Linked, not AbortSignal.any: a loop's pause is ended by every change it watches, and each
      // dependent signal of AbortSignal.any would stay on the heap until a full collection.
      const pause = new AbortController();
      const linked = linkedSignal([signal, pause.signal]);
      this.#pause = pause;
      try {
        await this.#clock.sleep(ms, linked.signal);
      } finally {
        this.#pause = undefined;
        linked.release();
      }
    }
    this.#woken = false;
  }
}
