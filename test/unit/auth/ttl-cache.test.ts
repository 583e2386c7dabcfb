import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TtlCache } from '../../../src/runtime/auth/ttl-cache.ts';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';

describe('TtlCache', () => {
  it('forgets an entry once its time to live has passed', () => {
    const clock = new FakeClock(0);
    const cache = new TtlCache<string, number>(10, clock);
    cache.set('a', 1, 1000);
    clock.advance(999);
    assert.equal(cache.get('a'), 1);
    clock.advance(1);
    assert.equal(cache.get('a'), undefined);
  });

  it('expires after its time to live of monotonic time, whatever the wall clock does', () => {
    const clock = new FakeClock(0);
    const cache = new TtlCache<string, number>(10, clock);
    cache.set('a', 1, 1000);
    clock.stepWall(3_600_000);
    assert.equal(cache.get('a'), 1, 'a wall step forward does not expire it early');
    clock.stepWall(-7_200_000);
    clock.advance(1000);
    assert.equal(cache.get('a'), undefined, 'a wall step back does not keep it alive');
  });

  it('keeps at most `capacity` entries, dropping the least recently used', () => {
    const cache = new TtlCache<string, number>(2, new FakeClock(0));
    cache.set('a', 1, 1000);
    cache.set('b', 2, 1000);
    cache.get('a');
    cache.set('c', 3, 1000);
    assert.equal(cache.size, 2);
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a'), 1);
    assert.equal(cache.get('c'), 3);
  });

  it('shares one load between concurrent callers and stores its value', async () => {
    const cache = new TtlCache<string, number>(10, new FakeClock(0));
    let loads = 0;
    const load = async (): Promise<number> => {
      loads += 1;
      return 7;
    };
    const values = await Promise.all([cache.getOrLoad('k', load, 1000), cache.getOrLoad('k', load, 1000)]);
    assert.deepEqual(values, [7, 7]);
    assert.equal(await cache.getOrLoad('k', load, 1000), 7);
    assert.equal(loads, 1);
  });

  it('does not store a failed load: the next caller loads again', async () => {
    const cache = new TtlCache<string, number>(10, new FakeClock(0));
    await assert.rejects(cache.getOrLoad('k', () => Promise.reject(new Error('API server down')), 1000));
    assert.equal(await cache.getOrLoad('k', async () => 8, 1000), 8);
  });
});
