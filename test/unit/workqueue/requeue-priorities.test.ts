import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { LOW_PRIORITY } from '../../../src/runtime/workqueue/add-options.ts';
import { ItemExponentialFailureRateLimiter } from '../../../src/runtime/workqueue/item-exponential-failure-rate-limiter.ts';
import type { QueueItem } from '../../../src/runtime/workqueue/queue-item.ts';
import { Workqueue } from '../../../src/runtime/workqueue/workqueue.ts';
import { advance } from './flush.ts';
import { keyOf } from './key-of.ts';

function setup(): { clock: FakeClock; queue: Workqueue } {
  const clock = new FakeClock(0);
  const rateLimiter = new ItemExponentialFailureRateLimiter({ baseDelay: 100 });
  return { clock, queue: new Workqueue({ clock, rateLimiter }) };
}

/** The next item, which must be ready now. */
async function next(queue: Workqueue): Promise<QueueItem<string> & { shutdown: false }> {
  assert.ok(queue.len > 0, 'a key is ready');
  const item = await queue.get();
  keyOf(item);
  return item as QueueItem<string> & { shutdown: false };
}

test('addAfter of a key being processed keeps the priority it was handed out at', async () => {
  const { clock, queue } = setup();
  queue.add('resync', { priority: LOW_PRIORITY });
  const item = await next(queue);
  queue.addAfter(item.key, 1000);
  queue.done(item.key);
  queue.add('event');
  await advance(clock, 1000);
  assert.deepEqual(
    [await next(queue), await next(queue)].map((i) => [i.key, i.priority]),
    [
      ['event', 0],
      ['resync', LOW_PRIORITY],
    ],
  );
});

test('addRateLimited of a key being processed keeps its priority, high or low', async () => {
  const { clock, queue } = setup();
  queue.add('urgent', { priority: 10 });
  queue.add('resync', { priority: LOW_PRIORITY });
  for (const key of ['urgent', 'resync']) {
    const item = await next(queue);
    assert.equal(item.key, key);
    queue.addRateLimited(item.key);
    queue.done(item.key);
  }
  await advance(clock, 100);
  assert.deepEqual(
    [await next(queue), await next(queue)].map((i) => [i.key, i.priority]),
    [
      ['urgent', 10],
      ['resync', LOW_PRIORITY],
    ],
  );
});

test('an event while the key is processed does not change the priority of its requeue', async () => {
  const { clock, queue } = setup();
  queue.add('a', { priority: LOW_PRIORITY });
  const item = await next(queue);
  queue.add('a');
  queue.addAfter('a', 500);
  queue.done('a');
  assert.deepEqual(
    await next(queue),
    { shutdown: false, key: 'a', priority: 0 },
    'the event, at its own priority',
  );
  queue.done('a');
  await advance(clock, 500);
  assert.deepEqual(await next(queue), { shutdown: false, key: item.key, priority: LOW_PRIORITY });
});

test('a priority given to addAfter or addRateLimited wins', async () => {
  const { clock, queue } = setup();
  queue.add('a', { priority: LOW_PRIORITY });
  queue.add('b', { priority: LOW_PRIORITY });
  const a = await next(queue);
  const b = await next(queue);
  queue.addAfter(a.key, 100, { priority: 5 });
  queue.addRateLimited(b.key, { priority: 7 });
  queue.done(a.key);
  queue.done(b.key);
  await advance(clock, 100);
  assert.deepEqual(
    [await next(queue), await next(queue)].map((i) => [i.key, i.priority]),
    [
      ['b', 7],
      ['a', 5],
    ],
  );
});

test('outside processing a requeue keeps the priority the key waits with, else 0', async () => {
  const { clock, queue } = setup();
  queue.add('queued', { priority: LOW_PRIORITY });
  queue.addAfter('queued', 100);
  queue.addAfter('delayed', 200, { priority: LOW_PRIORITY });
  queue.addAfter('delayed', 100);
  queue.addAfter('unknown', 100);
  assert.deepEqual((await next(queue)).priority, LOW_PRIORITY);
  queue.done('queued');
  await advance(clock, 100);
  const items = [await next(queue), await next(queue), await next(queue)];
  assert.deepEqual(items.map((i) => [i.key, i.priority]).sort(), [
    ['delayed', LOW_PRIORITY],
    ['queued', LOW_PRIORITY],
    ['unknown', 0],
  ]);
});

test('a failing resync keeps low priority on every retry and is still served under a steady flow of events', async () => {
  const clock = new FakeClock(0);
  const rateLimiter = new ItemExponentialFailureRateLimiter({ baseDelay: 10, maxDelay: 10 });
  const queue = new Workqueue({ clock, rateLimiter, maxOvertakes: 3 });
  queue.add('resync', { priority: LOW_PRIORITY });
  let events = 0;
  for (let i = 0; i < 5; i++) queue.add(`event-${events++}`);
  const resyncServedAt: number[] = [];
  for (let gets = 1; resyncServedAt.length < 5; gets++) {
    assert.ok(gets < 100, `the resync is starved: served at gets ${resyncServedAt.join(',')}`);
    // Wall-clock steps must not matter to the order of service.
    clock.stepWall(gets % 2 === 0 ? 3_600_000 : -3_600_000);
    const item = await next(queue);
    if (item.key === 'resync') {
      assert.equal(item.priority, LOW_PRIORITY, 'a requeue never raises a resync above live events');
      resyncServedAt.push(gets);
      queue.addRateLimited(item.key);
    }
    queue.done(item.key);
    // A new live event for every one served, and time passing so the resync's backoff ends.
    queue.add(`event-${events++}`);
    await advance(clock, 10);
  }
  const gaps = resyncServedAt.slice(1).map((at, i) => at - (resyncServedAt[i] ?? 0));
  assert.ok(
    gaps.every((gap) => gap <= 5 * (3 + 1)),
    `after each retry the resync waits for at most the keys ahead of it, one fair turn in four: ${gaps.join(',')}`,
  );
});
