import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LOW_PRIORITY } from '../../../src/runtime/workqueue/add-options.ts';
import { Workqueue } from '../../../src/runtime/workqueue/workqueue.ts';
import { keyOf } from './key-of.ts';

// The queue keeps each key in a reusable slot and each priority in a ring of slots; these tests
// drive the cases where a slot or a ring is reused or grows while it holds entries.

async function drain(queue: Workqueue): Promise<string[]> {
  const keys: string[] = [];
  while (queue.len > 0) {
    const key = keyOf(await queue.get());
    keys.push(key);
    queue.done(key);
  }
  return keys;
}

test('a key taking over a released slot is not handed out through a leftover of the key before it', async () => {
  const queue = new Workqueue();
  queue.add('c', { priority: LOW_PRIORITY });
  queue.add('a', { priority: LOW_PRIORITY });
  // Raising `a` leaves its old entry behind `c` in the low band.
  queue.add('a');
  queue.add('d', { priority: LOW_PRIORITY });
  assert.equal(keyOf(await queue.get()), 'a');
  queue.done('a');
  // `b` takes the slot `a` released and is queued behind `d`, not at the leftover before it.
  queue.add('b', { priority: LOW_PRIORITY });
  assert.equal(queue.len, 3);
  assert.deepEqual(await drain(queue), ['c', 'd', 'b']);
});

test('a priority keeps its order when its ring grows while wrapped around', async () => {
  const queue = new Workqueue();
  const added: string[] = [];
  const add = (count: number): void => {
    for (let i = 0; i < count; i++) {
      const key = `k${added.length}`;
      added.push(key);
      queue.add(key);
    }
  };
  add(10);
  const served: string[] = [];
  for (let i = 0; i < 8; i++) {
    const key = keyOf(await queue.get());
    served.push(key);
    queue.done(key);
  }
  add(40);
  served.push(...(await drain(queue)));
  assert.deepEqual(served, added);
});

test('thousands of keys over several priorities each come out once, by priority and then in order', async () => {
  const queue = new Workqueue({ maxOvertakes: Infinity });
  const priorities = [LOW_PRIORITY, 0, 7];
  const expected = new Map<number, string[]>(priorities.map((priority) => [priority, []]));
  for (let i = 0; i < 3000; i++) {
    const priority = priorities[i % priorities.length] as number;
    const key = `ns-${i % 7}/obj-${i}`;
    queue.add(key, { priority });
    queue.add(key, { priority: LOW_PRIORITY });
    expected.get(priority)?.push(key);
  }
  assert.equal(queue.len, 3000);
  assert.deepEqual(await drain(queue), [
    ...(expected.get(7) as string[]),
    ...(expected.get(0) as string[]),
    ...(expected.get(LOW_PRIORITY) as string[]),
  ]);
});

test('slots released by done are reused without mixing up keys', async () => {
  const queue = new Workqueue();
  for (let round = 0; round < 5; round++) {
    const keys = Array.from({ length: 100 }, (_, i) => `r${round}-${i}`);
    for (const key of keys) queue.add(key);
    assert.deepEqual(await drain(queue), keys);
  }
  queue.add('last');
  assert.deepEqual(await drain(queue), ['last']);
});
