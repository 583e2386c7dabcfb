import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HashRing } from '../../../src/runtime/sharding/hash-ring.ts';
import { xxhash64 } from '../../../src/runtime/sharding/xxhash64.ts';

describe('xxhash64', () => {
  it('matches the reference XXH64 (seed 0) on short, mid and long UTF-8 input', () => {
    // Reference values of github.com/cespare/xxhash/v2 Sum64String, the external project's hash.
    assert.equal(xxhash64(''), 17241709254077376921n);
    assert.equal(xxhash64('abc'), 4952883123889572249n);
    assert.equal(xxhash64('shard-17'), 7605563019791362062n);
    assert.equal(xxhash64('ctrl.tsoperator.dev/Widget/ns-1/widget-123'), 12851677772094332789n);
    assert.equal(
      xxhash64('héllo wörld, a longer string of more than thirty-two bytes!!'),
      13467193564263185989n,
    );
  });
});

describe('HashRing', () => {
  const keys = Array.from({ length: 3000 }, (_, i) => `ctrl.tsoperator.dev/Widget/ns/w-${i}`);

  it('has no shard for any key when empty', () => {
    assert.equal(new HashRing([]).shardFor('a'), undefined);
  });

  it('spreads keys over the shards roughly evenly and the same for every order of shards', () => {
    const ring = new HashRing(['shard-0', 'shard-1', 'shard-2']);
    const reversed = new HashRing(['shard-2', 'shard-1', 'shard-0']);
    const counts = new Map<string, number>();
    for (const key of keys) {
      const shard = ring.shardFor(key) ?? '';
      assert.equal(reversed.shardFor(key), shard);
      counts.set(shard, (counts.get(shard) ?? 0) + 1);
    }
    assert.equal(counts.size, 3);
    for (const count of counts.values()) assert.ok(count > 600 && count < 1400, `${count} of 3000`);
  });

  it('moves only keys to a joining shard, about 1/N of them', () => {
    const before = new HashRing(['shard-0', 'shard-1']);
    const after = new HashRing(['shard-0', 'shard-1', 'shard-2']);
    let moved = 0;
    for (const key of keys) {
      const from = before.shardFor(key);
      const to = after.shardFor(key);
      if (from === to) continue;
      moved += 1;
      assert.equal(to, 'shard-2', 'a key moves only to the new shard');
    }
    assert.ok(moved > 3000 / 3 / 2 && moved < (3000 / 3) * 1.5, `${moved} moved`);
  });
});
