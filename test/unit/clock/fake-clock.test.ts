import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';

test('a sleep resolves only once the clock has advanced past it', async () => {
  const clock = new FakeClock(0);
  const woken: number[] = [];
  const first = clock.sleep(1000).then(() => woken.push(1000));
  const second = clock.sleep(3000).then(() => woken.push(3000));
  assert.equal(clock.sleepers, 2);
  clock.advance(999);
  await Promise.resolve();
  assert.deepEqual(woken, []);
  clock.advance(1);
  await first;
  assert.deepEqual(woken, [1000]);
  assert.equal(clock.sleepers, 1);
  clock.advance(5000);
  await second;
  assert.deepEqual(woken, [1000, 3000]);
  assert.equal(clock.now(), 6000);
});

test('an aborted sleep resolves at once and is no longer pending', async () => {
  const clock = new FakeClock(0);
  const controller = new AbortController();
  const slept = clock.sleep(60_000, controller.signal);
  controller.abort();
  await slept;
  assert.equal(clock.sleepers, 0);
  assert.equal(clock.now(), 0);
});
