import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Backoff } from '../../../src/runtime/cache/backoff.ts';

describe('Backoff', () => {
  it('doubles from 800 ms up to 30 s, adds jitter, and starts over on reset', () => {
    const none = new Backoff({ random: () => 0 });
    assert.deepEqual(
      Array.from({ length: 8 }, () => none.next()),
      [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000],
    );
    none.reset();
    assert.equal(none.next(), 800);
    const full = new Backoff({ random: () => 0.5 });
    assert.deepEqual([full.next(), full.next()], [1200, 2400]);
  });
});
