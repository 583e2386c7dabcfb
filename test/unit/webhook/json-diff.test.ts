import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  escapePointerToken,
  jsonDiff,
  jsonEqual,
  type JsonValue,
} from '../../../src/runtime/webhook/json-diff.ts';
import { applyJsonPatch } from '../../support/apply-json-patch.ts';
import { SeededRandom } from '../../support/seeded-random.ts';

describe('jsonDiff', () => {
  it('is empty for equal values, whatever their key order', () => {
    assert.deepEqual(jsonDiff({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }), []);
  });

  it('adds, removes and replaces object keys where they changed', () => {
    const ops = jsonDiff({ spec: { a: 1, b: 2, keep: true } }, { spec: { a: 3, c: 4, keep: true } });
    assert.deepEqual(ops, [
      { op: 'remove', path: '/spec/b' },
      { op: 'replace', path: '/spec/a', value: 3 },
      { op: 'add', path: '/spec/c', value: 4 },
    ]);
  });

  it('escapes "/" and "~" in keys (RFC 6901)', () => {
    const ops = jsonDiff({ metadata: { annotations: {} } }, { metadata: { annotations: { 'a/b~c': 'x' } } });
    assert.deepEqual(ops, [{ op: 'add', path: '/metadata/annotations/a~1b~0c', value: 'x' }]);
    assert.equal(escapePointerToken('~1/'), '~01~1');
  });

  it('defaults a field inside one array element without touching the others', () => {
    const from: JsonValue = { containers: [{ name: 'a' }, { name: 'b' }] };
    const to: JsonValue = { containers: [{ name: 'a' }, { name: 'b', image: 'nginx' }] };
    assert.deepEqual(jsonDiff(from, to), [{ op: 'add', path: '/containers/1/image', value: 'nginx' }]);
  });

  it('inserts into and removes from arrays at the indexes of the array being patched', () => {
    assert.deepEqual(jsonDiff([1, 2, 3], [0, 1, 3, 4]), [
      { op: 'add', path: '/0', value: 0 },
      { op: 'remove', path: '/2' },
      { op: 'add', path: '/3', value: 4 },
    ]);
  });

  it('replaces a value whose type changed, and the root itself', () => {
    assert.deepEqual(jsonDiff({ a: [1] }, { a: { x: 1 } }), [{ op: 'replace', path: '/a', value: { x: 1 } }]);
    assert.deepEqual(jsonDiff(1, 'x'), [{ op: 'replace', path: '', value: 'x' }]);
  });

  it('turns any value into any other: 2000 random pairs, applied strictly', () => {
    const random = new SeededRandom(20261129);
    for (let n = 0; n < 2000; n++) {
      const from = randomValue(random, 3);
      const to = random.chance(0.5) ? mutate(random, from, 3) : randomValue(random, 3);
      const ops = jsonDiff(from, to);
      assert.ok(jsonEqual(applyJsonPatch(from, ops), to), `pair ${n}: ${JSON.stringify({ from, to, ops })}`);
      assert.equal(jsonDiff(to, to).length, 0);
    }
  });
});

const KEYS = ['a', 'b', 'c/d', 'e~f', '~1', ''];

function randomValue(random: SeededRandom, depth: number): JsonValue {
  const pick = random.int(depth > 0 ? 6 : 4);
  if (pick === 0) return null;
  if (pick === 1) return random.chance(0.5);
  if (pick === 2) return random.int(5);
  if (pick === 3) return ['x', 'y', 'z'][random.int(3)] as string;
  if (pick === 4) return Array.from({ length: random.int(5) }, () => randomValue(random, depth - 1));
  const obj: { [key: string]: JsonValue } = {};
  for (let k = random.int(4); k > 0; k--)
    obj[KEYS[random.int(KEYS.length)] as string] = randomValue(random, depth - 1);
  return obj;
}

/** A value close to `value`: most of it kept, some parts changed, added or dropped. */
function mutate(random: SeededRandom, value: JsonValue, depth: number): JsonValue {
  if (random.chance(0.15)) return randomValue(random, depth);
  if (Array.isArray(value)) {
    const out = value
      .filter(() => !random.chance(0.2))
      .map((v) => (random.chance(0.3) ? mutate(random, v, depth - 1) : v));
    if (random.chance(0.4)) out.splice(random.int(out.length + 1), 0, randomValue(random, depth - 1));
    return out;
  }
  if (typeof value === 'object' && value !== null) {
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(value))
      if (!random.chance(0.2)) out[k] = random.chance(0.3) ? mutate(random, v, depth - 1) : v;
    if (random.chance(0.4)) out[KEYS[random.int(KEYS.length)] as string] = randomValue(random, depth - 1);
    return out;
  }
  return value;
}
