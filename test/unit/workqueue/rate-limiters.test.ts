import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { BucketRateLimiter } from '../../../src/runtime/workqueue/bucket-rate-limiter.ts';
import { defaultControllerRateLimiter } from '../../../src/runtime/workqueue/default-controller-rate-limiter.ts';
import { ItemExponentialFailureRateLimiter } from '../../../src/runtime/workqueue/item-exponential-failure-rate-limiter.ts';
import { ItemFastSlowRateLimiter } from '../../../src/runtime/workqueue/item-fast-slow-rate-limiter.ts';
import { MaxOfRateLimiter } from '../../../src/runtime/workqueue/max-of-rate-limiter.ts';
import type { RateLimiter } from '../../../src/runtime/workqueue/rate-limiter.ts';

function delays(limiter: RateLimiter, key: string, count: number): number[] {
  return Array.from({ length: count }, () => limiter.when(key));
}

test('the exponential limiter doubles from 5 ms per key and counts requeues', () => {
  const limiter = new ItemExponentialFailureRateLimiter();
  assert.deepEqual(delays(limiter, 'a', 5), [5, 10, 20, 40, 80]);
  assert.equal(limiter.numRequeues('a'), 5);
  assert.deepEqual(delays(limiter, 'b', 2), [5, 10], 'keys back off independently');
  limiter.forget('a');
  assert.equal(limiter.numRequeues('a'), 0);
  assert.equal(limiter.when('a'), 5);
});

test('the exponential limiter stops at 1000 s, however many failures', () => {
  const limiter = new ItemExponentialFailureRateLimiter();
  const all = delays(limiter, 'a', 2000);
  assert.equal(all[17], 5 * 2 ** 17);
  assert.equal(all[18], 1_000_000);
  assert.equal(all[1999], 1_000_000);
});

test('the exponential limiter takes its base and cap', () => {
  const limiter = new ItemExponentialFailureRateLimiter({ baseDelay: 1, maxDelay: 3 });
  assert.deepEqual(delays(limiter, 'a', 4), [1, 2, 3, 3]);
});

test('the bucket limiter lets a burst through, then spaces requeues at 1/qps', () => {
  const clock = new FakeClock(0);
  const limiter: RateLimiter = new BucketRateLimiter({ qps: 10, burst: 100, clock });
  const burst = delays(limiter, 'any', 100);
  assert.ok(burst.every((d) => d === 0));
  assert.deepEqual(delays(limiter, 'any', 3), [100, 200, 300]);
  assert.equal(limiter.numRequeues('any'), 0);
});

test('the bucket limiter refills with time, up to its burst', () => {
  const clock = new FakeClock(0);
  const limiter: RateLimiter = new BucketRateLimiter({ qps: 10, burst: 2, clock });
  assert.deepEqual(delays(limiter, 'k', 3), [0, 0, 100]);
  clock.advance(300);
  assert.deepEqual(delays(limiter, 'k', 2), [0, 0], 'the debt was paid and the bucket refilled');
  assert.equal(limiter.when('k'), 100);
  clock.advance(60_000);
  assert.deepEqual(delays(limiter, 'k', 3), [0, 0, 100], 'never more than the burst');
});

test('the fast-slow limiter is fast for the first attempts of a key, then slow', () => {
  const limiter = new ItemFastSlowRateLimiter({ fastDelay: 5, slowDelay: 10_000, maxFastAttempts: 3 });
  assert.deepEqual(delays(limiter, 'a', 5), [5, 5, 5, 10_000, 10_000]);
  assert.equal(limiter.numRequeues('a'), 5);
  limiter.forget('a');
  assert.equal(limiter.when('a'), 5);
});

test('the max-of limiter answers the longest delay and the most requeues, and forgets in all', () => {
  const fast = new ItemFastSlowRateLimiter({ fastDelay: 1, slowDelay: 1000, maxFastAttempts: 2 });
  const exponential = new ItemExponentialFailureRateLimiter({ baseDelay: 2 });
  const limiter = new MaxOfRateLimiter(fast, exponential);
  assert.deepEqual(delays(limiter, 'a', 4), [2, 4, 1000, 1000]);
  assert.equal(limiter.numRequeues('a'), 4);
  limiter.forget('a');
  assert.equal(fast.numRequeues('a'), 0);
  assert.equal(exponential.numRequeues('a'), 0);
});

test('the default controller limiter is per-key exponential under an overall 10 qps bucket of 100', () => {
  const clock = new FakeClock(0);
  const limiter = defaultControllerRateLimiter(clock);
  assert.deepEqual(delays(limiter, 'a', 3), [5, 10, 20]);
  for (let i = 0; i < 97; i++) assert.equal(limiter.when(`key-${i}`), 5);
  assert.equal(limiter.when('fresh'), 100, 'the bucket is empty: its wait exceeds the first backoff');
  assert.equal(limiter.numRequeues('a'), 3);
});
