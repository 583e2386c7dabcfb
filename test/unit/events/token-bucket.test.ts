import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { LruMap } from '../../../src/runtime/events/lru-map.ts';
import { TokenBucket } from '../../../src/runtime/events/token-bucket.ts';

test('a token bucket passes its burst, then one per refill interval, never more than the burst', () => {
  const clock = new FakeClock(0);
  const bucket = new TokenBucket(3, 1000, clock);
  assert.deepEqual(
    [1, 2, 3, 4].map(() => bucket.tryTake()),
    [true, true, true, false],
  );
  clock.advance(999);
  assert.equal(bucket.tryTake(), false);
  clock.advance(1);
  assert.equal(bucket.tryTake(), true);
  clock.advance(60_000);
  assert.deepEqual(
    [1, 2, 3, 4].map(() => bucket.tryTake()),
    [true, true, true, false],
  );
});

test('a token bucket neither stalls after a wall step back nor refills after a step forward', () => {
  const clock = new FakeClock(0);
  const bucket = new TokenBucket(1, 1000, clock);
  assert.equal(bucket.tryTake(), true);
  clock.stepWall(-3_600_000);
  clock.advance(1000);
  assert.equal(bucket.tryTake(), true, 'refilled after 1 s, as without the step');
  clock.stepWall(7_200_000);
  assert.equal(bucket.tryTake(), false, 'two hours of wall time refilled nothing');
});

test('an LRU map forgets the least recently used entry beyond its capacity', () => {
  const map = new LruMap<string, number>(2);
  map.set('a', 1);
  map.set('b', 2);
  assert.equal(map.get('a'), 1);
  map.set('c', 3);
  assert.deepEqual([map.get('a'), map.get('b'), map.get('c')], [1, undefined, 3]);
});
