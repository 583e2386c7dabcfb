import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Workqueue } from '../../../src/runtime/workqueue/workqueue.ts';
import { SeededRandom } from '../../support/seeded-random.ts';
import { flush } from './flush.ts';

/**
 * client-go's queue rules as plain sets, updated in the same synchronous step as each queue call:
 * it says which key each get must receive and when, so the run can be checked exactly.
 */
class QueueModel {
  readonly pending = new Set<string>();
  readonly processing = new Set<string>();
  readonly #ready: string[] = [];
  readonly #waiting: number[] = [];
  /** The key each worker must receive from its current get. */
  readonly expected = new Map<number, string>();
  /** Logical time of each key's last add and last hand-out. */
  readonly lastAdd = new Map<string, number>();
  readonly lastHandOut = new Map<string, number>();
  /** Adds that made a key pending: each must lead to exactly one processing. */
  readonly pendingAdds = new Map<string, number>();
  #time = 0;

  add(key: string): void {
    this.lastAdd.set(key, this.#time++);
    if (this.pending.has(key)) return;
    this.pending.add(key);
    this.pendingAdds.set(key, (this.pendingAdds.get(key) ?? 0) + 1);
    if (this.processing.has(key)) return;
    this.#ready.push(key);
    this.#serve();
  }

  get(worker: number): void {
    this.#waiting.push(worker);
    this.#serve();
  }

  done(key: string): void {
    this.processing.delete(key);
    if (!this.pending.has(key)) return;
    this.#ready.push(key);
    this.#serve();
  }

  get idle(): boolean {
    return this.pending.size === 0 && this.processing.size === 0;
  }

  #serve(): void {
    while (this.#waiting.length > 0 && this.#ready.length > 0) {
      const worker = this.#waiting.shift() as number;
      const key = this.#ready.shift() as string;
      this.pending.delete(key);
      this.processing.add(key);
      this.expected.set(worker, key);
      this.lastHandOut.set(key, this.#time++);
    }
  }
}

interface RunOptions {
  seed: number;
  /** Chance that a worker adds keys while it processes one (its own included). */
  readdChance: number;
}

async function randomPause(random: SeededRandom): Promise<void> {
  const kind = random.int(4);
  if (kind === 3) await flush();
  else for (let i = 0; i < kind; i++) await Promise.resolve();
}

async function run({ seed, readdChance }: RunOptions): Promise<void> {
  const random = new SeededRandom(seed);
  const keys = Array.from({ length: 2 + random.int(7) }, (_, i) => `ns/key-${i}`);
  const workers = 1 + random.int(6);
  const queue = new Workqueue();
  const model = new QueueModel();
  const active = new Set<string>();
  const processed = new Map<string, number>();
  let producing = true;
  let markIdle: () => void = () => undefined;
  const idle = new Promise<void>((resolve) => (markIdle = resolve));
  const add = (key: string): void => {
    queue.add(key);
    model.add(key);
  };
  const checkIdle = (): void => {
    if (!producing && model.idle) markIdle();
  };

  const worker = async (id: number): Promise<void> => {
    for (;;) {
      const got = queue.get();
      model.get(id);
      const item = await got;
      if (item.shutdown) return;
      assert.equal(item.key, model.expected.get(id), `seed ${seed}: worker ${id} got an unexpected key`);
      assert.ok(!active.has(item.key), `seed ${seed}: ${item.key} handed to two workers at once`);
      active.add(item.key);
      processed.set(item.key, (processed.get(item.key) ?? 0) + 1);
      await randomPause(random);
      if (producing && random.chance(readdChance))
        add(random.chance(0.5) ? item.key : (keys[random.int(keys.length)] as string));
      await randomPause(random);
      active.delete(item.key);
      queue.done(item.key);
      model.done(item.key);
      checkIdle();
    }
  };
  const running = Array.from({ length: workers }, (_, id) => worker(id));

  for (let op = 0; op < 200; op++) {
    add(keys[random.int(keys.length)] as string);
    if (random.chance(0.5)) await randomPause(random);
  }
  producing = false;
  checkIdle();
  try {
    // A failed assertion rejects its worker: that ends the wait too, instead of leaving it hanging.
    await Promise.race([idle, Promise.all(running)]);
  } finally {
    queue.shutDown();
  }
  await Promise.all(running);

  for (const key of model.lastAdd.keys()) {
    assert.ok(
      (model.lastHandOut.get(key) ?? -1) > (model.lastAdd.get(key) as number),
      `seed ${seed}: ${key} was not processed after its last add`,
    );
    assert.equal(
      processed.get(key),
      model.pendingAdds.get(key),
      `seed ${seed}: ${key} processed once per pending add`,
    );
  }
}

test('random workers and adds: never two workers on a key, every add processed after, no extra processing', async () => {
  for (let seed = 1; seed <= 300; seed++) await run({ seed, readdChance: 0.3 });
});

test('random workers and adds, no re-add while processing: each key processed exactly once per batch of adds', async () => {
  for (let seed = 1001; seed <= 1300; seed++) await run({ seed, readdChance: 0 });
});
