import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DelayHeap } from '../../../src/runtime/workqueue/delay-heap.ts';
import { SeededRandom } from '../../support/seeded-random.ts';

test('the heap pops due keys in deadline order, each key once, at its earliest deadline', () => {
  for (let seed = 1; seed <= 200; seed++) {
    const random = new SeededRandom(seed);
    const heap = new DelayHeap<string>();
    const earliest = new Map<string, number>();
    for (let i = 0; i < 100; i++) {
      const key = `k${random.int(30)}`;
      const readyAt = random.int(1000);
      heap.push(key, readyAt, 0);
      earliest.set(key, Math.min(earliest.get(key) ?? Infinity, readyAt));
    }
    assert.equal(heap.size, earliest.size);
    const popped: [string, number][] = [];
    for (let now = 0; now <= 1000; now += 1 + random.int(50)) {
      for (let due = heap.popDue(now); due !== undefined; due = heap.popDue(now)) {
        assert.ok(due.readyAt <= now, `seed ${seed}: popped before its deadline`);
        popped.push([due.key, due.readyAt]);
      }
    }
    for (let due = heap.popDue(Infinity); due !== undefined; due = heap.popDue(Infinity))
      popped.push([due.key, due.readyAt]);
    const deadlines = popped.map(([, at]) => at);
    assert.deepEqual(
      deadlines,
      [...deadlines].sort((a, b) => a - b),
      `seed ${seed}: deadline order`,
    );
    assert.deepEqual(new Map(popped), earliest, `seed ${seed}: each key once, at its earliest deadline`);
  }
});

test('push tells whether the earliest deadline changed', () => {
  const heap = new DelayHeap<string>();
  assert.equal(heap.push('a', 100, 0), true);
  assert.equal(heap.push('b', 200, 0), false);
  assert.equal(heap.push('a', 150, 0), false, 'a later deadline for a waiting key is ignored');
  assert.equal(heap.push('b', 50, 0), true);
  assert.equal(heap.nextReadyAt(), 50);
});
