import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LOW_PRIORITY } from '../../../src/runtime/workqueue/add-options.ts';
import { Workqueue } from '../../../src/runtime/workqueue/workqueue.ts';
import { keyOf } from './key-of.ts';

async function drain(queue: Workqueue): Promise<string[]> {
  const keys: string[] = [];
  while (queue.len > 0) {
    const key = keyOf(await queue.get());
    keys.push(key);
    queue.done(key);
  }
  return keys;
}

test('higher priorities are handed out first, each priority in the order keys were added', async () => {
  const queue = new Workqueue();
  queue.add('initial-1', { priority: LOW_PRIORITY });
  queue.add('event-1');
  queue.add('urgent', { priority: 10 });
  queue.add('initial-2', { priority: LOW_PRIORITY });
  queue.add('event-2');
  assert.deepEqual(await drain(queue), ['urgent', 'event-1', 'event-2', 'initial-1', 'initial-2']);
});

test('get tells the priority the key was handed out at', async () => {
  const queue = new Workqueue();
  queue.add('a', { priority: LOW_PRIORITY });
  assert.deepEqual(await queue.get(), { shutdown: false, key: 'a', priority: LOW_PRIORITY });
});

test('adding a queued key again at a higher priority raises it; a lower one does not lower it', async () => {
  const queue = new Workqueue();
  queue.add('a', { priority: LOW_PRIORITY });
  queue.add('b');
  queue.add('c', { priority: 5 });
  queue.add('a', { priority: 5 });
  queue.add('c', { priority: LOW_PRIORITY });
  assert.equal(queue.len, 3);
  assert.deepEqual(await drain(queue), ['c', 'a', 'b']);
});

test('a key re-added while processed is queued after done at the highest priority it was given', async () => {
  const queue = new Workqueue();
  queue.add('a', { priority: LOW_PRIORITY });
  keyOf(await queue.get());
  queue.add('a', { priority: LOW_PRIORITY });
  queue.add('a', { priority: 3 });
  queue.add('b');
  queue.done('a');
  assert.deepEqual(await queue.get(), { shutdown: false, key: 'a', priority: 3 });
});

test('a low-priority key is served within maxOvertakes + 1 gets under a steady flow of higher ones', async () => {
  for (const maxOvertakes of [0, 1, 3, 10]) {
    const queue = new Workqueue({ maxOvertakes });
    queue.add('low', { priority: LOW_PRIORITY });
    let fresh = 0;
    queue.add(`high-${fresh++}`);
    const served: string[] = [];
    while (!served.includes('low')) {
      const key = keyOf(await queue.get());
      served.push(key);
      queue.done(key);
      queue.add(`high-${fresh++}`);
    }
    assert.equal(served.length, maxOvertakes + 1, `maxOvertakes ${maxOvertakes}: ${served.join(',')}`);
  }
});

test('the default share: at least 1 in 11 gets goes to waiting lower priorities', async () => {
  const queue = new Workqueue();
  for (let i = 0; i < 5; i++) queue.add(`low-${i}`, { priority: LOW_PRIORITY });
  for (let i = 0; i < 100; i++) queue.add(`high-${i}`);
  const firstLows: number[] = [];
  for (let n = 1; firstLows.length < 5; n++) {
    const key = keyOf(await queue.get());
    queue.done(key);
    if (key.startsWith('low-')) firstLows.push(n);
  }
  assert.deepEqual(firstLows, [11, 22, 33, 44, 55]);
});

test('with three priorities the fair turn goes to the key that waits longest', async () => {
  const queue = new Workqueue({ maxOvertakes: 2 });
  queue.add('low', { priority: LOW_PRIORITY });
  queue.add('middle', { priority: 0 });
  for (let i = 0; i < 10; i++) queue.add(`high-${i}`, { priority: 10 });
  const served: string[] = [];
  for (let i = 0; i < 6; i++) {
    const key = keyOf(await queue.get());
    served.push(key);
    queue.done(key);
  }
  assert.deepEqual(served, ['high-0', 'high-1', 'low', 'high-2', 'high-3', 'middle']);
});

test('nothing starves: under a steady flow of higher priorities every low key is served within a bound', async () => {
  const queue = new Workqueue({ maxOvertakes: 4 });
  const addedAtGet = new Map<string, number>();
  let gets = 0;
  let next = 0;
  const addFresh = (priority: number): void => {
    const key = `k-${next++}`;
    queue.add(key, { priority });
    addedAtGet.set(key, gets);
  };
  for (let i = 0; i < 10; i++) addFresh(LOW_PRIORITY);
  for (let i = 0; i < 20; i++) addFresh(i % 2 === 0 ? 0 : 10);
  let longestWait = 0;
  const lowsServed = new Set<string>();
  for (; gets < 1000;) {
    const item = await queue.get();
    const key = keyOf(item);
    gets++;
    longestWait = Math.max(longestWait, gets - (addedAtGet.get(key) as number));
    if (!item.shutdown && item.priority === LOW_PRIORITY) lowsServed.add(key);
    queue.done(key);
    // Fresh keys are never low: with strict priority the ten low keys would wait forever.
    addFresh(gets % 2 === 0 ? 0 : 10);
  }
  assert.equal(lowsServed.size, 10);
  // 30 keys always wait, so a plain FIFO serves each within 30 gets; priorities may hold a key
  // back only within the fairness rule: one turn in five goes to the longest-waiting key.
  assert.ok(longestWait <= 30 * 5, `longest wait ${longestWait} gets`);
});
