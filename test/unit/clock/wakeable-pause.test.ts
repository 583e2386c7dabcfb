import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { WakeablePause } from '../../../src/runtime/clock/wakeable-pause.ts';

const never = new AbortController().signal;

test('a pause lasts its time unless woken, and a wake ends it early with its timer gone', async () => {
  const clock = new FakeClock(0);
  const pause = new WakeablePause(clock);
  const lasting = pause.pause(2000, never);
  assert.equal(clock.sleepers, 1);
  clock.advance(2000);
  await lasting;
  const woken = pause.pause(2000, never);
  pause.wake();
  await woken;
  assert.equal(clock.now(), 2000, 'woken before any time passed');
  assert.equal(clock.sleepers, 0, 'and no timer is left behind');
});

test('a wake while the loop is busy skips the next pause once, not the one after', async () => {
  const clock = new FakeClock(0);
  const pause = new WakeablePause(clock);
  pause.wake();
  await pause.pause(2000, never);
  assert.equal(clock.sleepers, 0, 'the change seen while busy is acted on at once');
  const next = pause.pause(2000, never);
  assert.equal(clock.sleepers, 1, 'then the loop pauses again');
  clock.advance(2000);
  await next;
});

test('cleared, the changes seen so far do not skip the pause; the signal ends it', async () => {
  const clock = new FakeClock(0);
  const pause = new WakeablePause(clock);
  pause.wake();
  pause.clear();
  const stop = new AbortController();
  const pending = pause.pause(2000, stop.signal);
  assert.equal(clock.sleepers, 1);
  stop.abort();
  await pending;
  assert.equal(clock.sleepers, 0);
});
