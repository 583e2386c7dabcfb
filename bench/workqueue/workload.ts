import { Workqueue } from '../../src/runtime/workqueue/workqueue.ts';

/** What one scenario run measured; the Go peer prints the same shape. */
export interface WorkloadResult {
  scenario: string;
  processed: number;
  adds: number;
  seconds: number;
  /** CPU seconds of the process (all threads) over the run: robust to a busy machine. */
  cpuSeconds: number;
}

export interface WorkloadOptions {
  /** Concurrent workers. */
  workers: number;
  /** Distinct keys. */
  keys: number;
  /** requeue: items to process; filldrain: adds. */
  items: number;
  /** Queue name; a non-empty one turns the workqueue_* metrics on. */
  name: string;
}

function elapsed(start: number, cpuStart: NodeJS.CpuUsage): { seconds: number; cpuSeconds: number } {
  const cpu = process.cpuUsage(cpuStart);
  return { seconds: (performance.now() - start) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

/** The keys both peers use: `ns-<i % 100>/obj-<i>`. */
export function keyNames(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `ns-${i % 100}/obj-${i}`);
}

/**
 * requeue: all keys queued; each worker re-adds the key it holds (processed again after done) and
 * one other key (usually a duplicate) until the target count is processed.
 */
export async function requeue(options: WorkloadOptions): Promise<WorkloadResult> {
  const names = keyNames(options.keys);
  const index = new Map(names.map((name, i) => [name, i]));
  const queue = new Workqueue({ name: options.name });
  let processed = 0;
  let adds = names.length;
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  for (const name of names) queue.add(name);
  const worker = async (): Promise<void> => {
    for (;;) {
      const item = await queue.get();
      if (item.shutdown) return;
      const i = index.get(item.key) as number;
      queue.add(item.key);
      queue.add(names[(i * 7 + 1) % names.length] as string);
      adds += 2;
      if (++processed === options.items) queue.shutDown();
      queue.done(item.key);
    }
  };
  await Promise.all(Array.from({ length: options.workers }, worker));
  return { scenario: 'requeue', processed, adds, ...elapsed(start, cpuStart) };
}

/**
 * filldrain: every add first (cycling over the keys, so with duplicates), then the workers drain
 * the queue: each distinct key is processed once.
 */
export async function filldrain(options: WorkloadOptions): Promise<WorkloadResult> {
  const names = keyNames(options.keys);
  const queue = new Workqueue({ name: options.name });
  let processed = 0;
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < options.items; i++) queue.add(names[i % names.length] as string);
  queue.shutDown();
  const worker = async (): Promise<void> => {
    for (;;) {
      const item = await queue.get();
      if (item.shutdown) return;
      queue.done(item.key);
      processed++;
    }
  };
  await Promise.all(Array.from({ length: options.workers }, worker));
  return { scenario: 'filldrain', processed, adds: options.items, ...elapsed(start, cpuStart) };
}
