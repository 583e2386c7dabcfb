import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { Workqueue } from '../../../src/runtime/workqueue/workqueue.ts';
import { keyOf } from './key-of.ts';
import { advance, flush } from './flush.ts';

test('addAfter queues the key once its delay has passed, not before', async () => {
  const clock = new FakeClock(0);
  const queue = new Workqueue({ clock });
  queue.addAfter('a', 100);
  assert.equal(queue.len, 0);
  await advance(clock, 99);
  assert.equal(queue.len, 0);
  await advance(clock, 1);
  assert.equal(queue.len, 1);
  assert.equal(keyOf(await queue.get()), 'a');
  queue.shutDown();
});

test('one timer serves many delayed keys, which are queued in deadline order', async () => {
  const clock = new FakeClock(0);
  const queue = new Workqueue({ clock });
  queue.addAfter('late', 300);
  queue.addAfter('early', 100);
  queue.addAfter('middle', 200);
  assert.equal(clock.sleepers, 1, 'only the earliest deadline is waited for');
  await advance(clock, 300);
  assert.deepEqual(
    [keyOf(await queue.get()), keyOf(await queue.get()), keyOf(await queue.get())],
    ['early', 'middle', 'late'],
  );
  assert.equal(clock.sleepers, 0);
});

test('for a key that waits already, the earliest deadline wins', async () => {
  const clock = new FakeClock(0);
  const queue = new Workqueue({ clock });
  queue.addAfter('a', 500);
  queue.addAfter('a', 100);
  queue.addAfter('a', 300);
  await advance(clock, 100);
  assert.equal(queue.len, 1);
  keyOf(await queue.get());
  queue.done('a');
  await advance(clock, 1000);
  assert.equal(queue.len, 0, 'the later deadlines were merged into the earliest');
});

test('a zero or negative delay adds at once', () => {
  const queue = new Workqueue({ clock: new FakeClock(0) });
  queue.addAfter('zero', 0);
  queue.addAfter('negative', -5);
  assert.equal(queue.len, 2);
});

test('a delayed key is independent of the same key queued now, as in client-go', async () => {
  const clock = new FakeClock(0);
  const queue = new Workqueue({ clock });
  queue.add('a');
  queue.addAfter('a', 50);
  assert.equal(keyOf(await queue.get()), 'a');
  queue.done('a');
  await advance(clock, 50);
  assert.equal(keyOf(await queue.get()), 'a');
});

test('a delayed key keeps the highest priority it was given', async () => {
  const clock = new FakeClock(0);
  const queue = new Workqueue({ clock });
  queue.addAfter('a', 100, { priority: 5 });
  queue.addAfter('a', 200, { priority: -1 });
  await advance(clock, 100);
  assert.deepEqual(await queue.get(), { shutdown: false, key: 'a', priority: 5 });
});

test('shutDown drops delayed keys and stops waiting for them', async () => {
  const clock = new FakeClock(0);
  const queue = new Workqueue({ clock });
  queue.addAfter('a', 100);
  queue.shutDown();
  await flush();
  assert.equal(clock.sleepers, 0);
  await advance(clock, 1000);
  assert.equal(queue.len, 0);
  assert.deepEqual(await queue.get(), { shutdown: true });
});

test('a waiting get is served when a delayed key falls due', async () => {
  const clock = new FakeClock(0);
  const queue = new Workqueue({ clock });
  const waiting = queue.get();
  queue.addAfter('a', 10);
  await advance(clock, 10);
  assert.equal(keyOf(await waiting), 'a');
});

test('a delay longer than a Node timer can hold is waited for in steps, not fired early', async () => {
  const clock = new FakeClock(0);
  const queue = new Workqueue({ clock });
  const fortyDays = 40 * 24 * 3600 * 1000;
  queue.addAfter('a', fortyDays);
  await advance(clock, 2 ** 31 - 1);
  assert.equal(queue.len, 0);
  assert.equal(clock.sleepers, 1, 'waiting again for the rest');
  await advance(clock, fortyDays - (2 ** 31 - 1));
  assert.equal(queue.len, 1);
});

test('a NaN delay adds at once instead of corrupting the deadline order', () => {
  const queue = new Workqueue({ clock: new FakeClock(0) });
  queue.addAfter('a', Number.NaN);
  assert.equal(queue.len, 1);
});
