import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LOW_PRIORITY } from '../../../src/runtime/workqueue/add-options.ts';
import { Workqueue } from '../../../src/runtime/workqueue/workqueue.ts';
import { SeededRandom } from '../../support/seeded-random.ts';

const PRIORITIES = [LOW_PRIORITY, -1, 0, 5, 10];

/**
 * Random adds at random priorities (raising keys that wait, re-adding keys in flight), gets and
 * dones, in one synchronous sequence per seed: whatever the order priorities and fairness choose,
 * a key is handed out only if it is pending and not in flight, `len` counts exactly the keys ready,
 * and draining at the end hands out every key still pending.
 */
async function run(seed: number): Promise<void> {
  const random = new SeededRandom(seed);
  const queue = new Workqueue({ maxOvertakes: random.int(4) });
  const keys = Array.from({ length: 2 + random.int(10) }, (_, i) => `k${i}`);
  const pending = new Set<string>();
  const inFlight = new Set<string>();
  const ready = (): number => [...pending].filter((key) => !inFlight.has(key)).length;
  const take = async (): Promise<void> => {
    const item = await queue.get();
    assert.equal(item.shutdown, false);
    if (item.shutdown) return;
    assert.ok(pending.has(item.key), `seed ${seed}: ${item.key} handed out without a pending add`);
    assert.ok(!inFlight.has(item.key), `seed ${seed}: ${item.key} handed out while in flight`);
    pending.delete(item.key);
    inFlight.add(item.key);
  };
  for (let step = 0; step < 300; step++) {
    const action = random.int(3);
    if (action === 0) {
      const key = keys[random.int(keys.length)] as string;
      queue.add(key, { priority: PRIORITIES[random.int(PRIORITIES.length)] as number });
      pending.add(key);
    } else if (action === 1 && queue.len > 0) {
      await take();
    } else if (inFlight.size > 0) {
      const key = [...inFlight][random.int(inFlight.size)] as string;
      inFlight.delete(key);
      queue.done(key);
    }
    assert.equal(queue.len, ready(), `seed ${seed}, step ${step}: len`);
  }
  for (const key of inFlight) queue.done(key);
  inFlight.clear();
  while (queue.len > 0) await take();
  assert.deepEqual([...pending], [], `seed ${seed}: keys left pending`);
}

test('random priorities, raises and re-adds: only pending keys are handed out, once, and none is lost', async () => {
  for (let seed = 1; seed <= 500; seed++) await run(seed);
});
