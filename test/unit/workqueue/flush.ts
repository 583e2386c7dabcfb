import type { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';

/** Resolves after every promise continuation queued so far has run. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Advances the clock, then lets the queue's timer continuation run. */
export async function advance(clock: FakeClock, ms: number): Promise<void> {
  clock.advance(ms);
  await flush();
}
