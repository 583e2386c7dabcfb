import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { ItemExponentialFailureRateLimiter } from '../../../src/runtime/workqueue/item-exponential-failure-rate-limiter.ts';
import { Workqueue } from '../../../src/runtime/workqueue/workqueue.ts';
import { advance } from './flush.ts';

test('addRateLimited waits the default backoff, 5 ms then doubling, until forget', async () => {
  const clock = new FakeClock(0);
  const queue = new Workqueue({ clock });
  for (const backoff of [5, 10, 20]) {
    queue.addRateLimited('a');
    await advance(clock, backoff - 1);
    assert.equal(queue.len, 0);
    await advance(clock, 1);
    assert.equal(queue.len, 1);
    await queue.get();
    queue.done('a');
  }
  assert.equal(queue.numRequeues('a'), 3);
  queue.forget('a');
  assert.equal(queue.numRequeues('a'), 0);
  queue.addRateLimited('a');
  await advance(clock, 5);
  assert.equal(queue.len, 1);
  queue.shutDown();
});

test('addRateLimited uses the limiter it is given', async () => {
  const clock = new FakeClock(0);
  const queue = new Workqueue({
    clock,
    rateLimiter: new ItemExponentialFailureRateLimiter({ baseDelay: 1000 }),
  });
  queue.addRateLimited('a');
  await advance(clock, 999);
  assert.equal(queue.len, 0);
  await advance(clock, 1);
  assert.equal(queue.len, 1);
});
