import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fnv1a64 } from '../../../src/runtime/sharding/fnv1a64.ts';
import {
  equalRange,
  formatRanges,
  HASH_SPACE,
  inRanges,
  intersectRanges,
  parseRanges,
  shardSelectorOf,
  subtractRanges,
  unionRanges,
} from '../../../src/runtime/sharding/hash-ranges.ts';

describe('fnv1a64', () => {
  it('is FNV-1a over the UTF-8 bytes, as kube-apiserver hashes a uid', () => {
    assert.equal(fnv1a64(''), 0xcbf29ce484222325n);
    assert.equal(fnv1a64('a'), 0xaf63dc4c8601ec8cn);
  });
});

describe('hash ranges', () => {
  it('splits the hash space into N equal ranges that cover it once', () => {
    const thirds = [0, 1, 2].flatMap((i) => equalRange(i, 3));
    assert.deepEqual(unionRanges(thirds, []), [{ start: 0n, end: HASH_SPACE }]);
    assert.equal(intersectRanges(equalRange(0, 3), equalRange(1, 3)).length, 0);
  });

  it('subtracts, intersects and merges', () => {
    const all = [{ start: 0n, end: 100n }];
    const middle = [{ start: 40n, end: 60n }];
    assert.deepEqual(subtractRanges(all, middle), [
      { start: 0n, end: 40n },
      { start: 60n, end: 100n },
    ]);
    assert.deepEqual(intersectRanges(all, middle), middle);
    assert.ok(inRanges(middle, 40n) && !inRanges(middle, 60n));
  });

  it("writes the server's selector syntax and reads its own annotation back", () => {
    const halves = equalRange(1, 2);
    assert.equal(
      shardSelectorOf(halves, 'object.metadata.uid'),
      "shardRange(object.metadata.uid, '0x8000000000000000', '0x10000000000000000')",
    );
    assert.deepEqual(parseRanges(formatRanges(halves)), halves);
    assert.deepEqual(parseRanges('nonsense'), []);
  });
});
