import { type Clock, systemClock } from '../clock/clock.ts';
import type { AddOptions } from './add-options.ts';
import { defaultControllerRateLimiter } from './default-controller-rate-limiter.ts';
import { DelayHeap } from './delay-heap.ts';
import { noopWorkqueueMetricsProvider } from './noop-workqueue-metrics-provider.ts';
import { KeySlots, PENDING, PROCESSING } from './key-slots.ts';
import { PriorityReadyQueue } from './priority-ready-queue.ts';
import { defaultWorkqueueMetricsProvider } from './prometheus-workqueue-metrics-provider.ts';
import { type QueueItem, SHUTDOWN } from './queue-item.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type {
  CounterMetric,
  DepthMetric,
  HistogramMetric,
  InFlightWork,
  WorkqueueMetricsProvider,
} from './workqueue-metrics-provider.ts';

export interface WorkqueueOptions<K extends string> {
  /** Names the queue in the workqueue_* metrics (`name` and `controller` labels). Default: '' (no metrics). */
  name?: string;
  /** Decides the delays of `addRateLimited`. Default: `defaultControllerRateLimiter(clock)`. */
  rateLimiter?: RateLimiter<K>;
  /** Measures delays and durations. Default: the system clock. */
  clock?: Clock;
  /** Where the metrics go. Default: the workqueue_* metrics in `metricsRegistry` when `name` is set. */
  metricsProvider?: WorkqueueMetricsProvider;
  /**
   * How many gets in a row may serve a higher priority while a lower one waits; the next serves
   * the key that waits longest. Default: 10 (lower priorities get at least 1 in 11 gets).
   */
  maxOvertakes?: number;
}

/**
 * Node fires a longer timer after 1 ms; a longer delay is waited for in steps of this size, each
 * waking finds nothing due and waits again.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The metrics of one queue; `enabled` is false when they go nowhere, to skip them and the clock. */
interface QueueMetrics {
  readonly enabled: boolean;
  readonly depth: DepthMetric;
  readonly adds: CounterMetric;
  readonly queueDuration: HistogramMetric;
  readonly workDuration: HistogramMetric;
  readonly retries: CounterMetric;
}

/**
 * A work queue with client-go's guarantees, for controllers: a key added many times before it is
 * handed out is processed once; a key is never handed to two workers at once; a key added again
 * while it is processed is handed out again after `done`. Keys are strings (`namespace/name`):
 * JavaScript has no value equality for objects, and a string is the cheapest exact identity a Map
 * has; `K` may narrow it to a branded or template-literal string type.
 *
 * @example
 * const queue = new Workqueue({ name: 'webapp' });
 * queue.add('default/my-app');
 * for (;;) {
 *   const item = await queue.get();
 *   if (item.shutdown) break;
 *   try {
 *     await reconcile(item.key);
 *     queue.forget(item.key);
 *   } catch {
 *     queue.addRateLimited(item.key);
 *   } finally {
 *     queue.done(item.key);
 *   }
 * }
 */
export class Workqueue<K extends string = string> {
  /** Keys pending (client-go's dirty set) or processing (its processing set), or both. */
  readonly #slots = new KeySlots<K>();
  #processing = 0;
  readonly #ready: PriorityReadyQueue<K>;
  readonly #delayed = new DelayHeap<K>();
  readonly #getters: ((item: QueueItem<K>) => void)[] = [];
  readonly #drainWaiters: (() => void)[] = [];
  readonly #rateLimiter: RateLimiter<K>;
  readonly #clock: Clock;
  readonly #metrics: QueueMetrics;
  readonly #stopInFlightMetrics: () => void;
  /** Aborts the one sleep that waits for the earliest delayed key. */
  #timer: AbortController | undefined;
  #shuttingDown = false;
  #seq = 0;

  constructor(options: WorkqueueOptions<K> = {}) {
    const name = options.name ?? '';
    this.#clock = options.clock ?? systemClock;
    this.#rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter<K>(this.#clock);
    this.#ready = new PriorityReadyQueue<K>(this.#slots, options.maxOvertakes ?? 10);
    const provider =
      options.metricsProvider ??
      (name === '' ? noopWorkqueueMetricsProvider : defaultWorkqueueMetricsProvider());
    this.#metrics = {
      enabled: provider !== noopWorkqueueMetricsProvider,
      depth: provider.depth(name),
      adds: provider.adds(name),
      queueDuration: provider.queueDuration(name),
      workDuration: provider.workDuration(name),
      retries: provider.retries(name),
    };
    this.#stopInFlightMetrics = provider.observeInFlight(name, () => this.#inFlightWork());
  }

  /** Keys ready to be handed out: not those waiting for a delay, nor those re-added while processed. */
  get len(): number {
    return this.#ready.size;
  }

  /** True once `shutDown` or `shutDownWithDrain` was called. */
  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /** Queues `key` unless it waits already; ignored after shutdown. */
  add(key: K, options?: AddOptions): void {
    if (this.#shuttingDown) return;
    const priority = options?.priority ?? 0;
    const slots = this.#slots;
    const slot = slots.slotFor(key);
    const flags = slots.flags[slot] as number;
    if ((flags & PENDING) !== 0) {
      if (priority > (slots.priority[slot] as number)) this.#raise(slot, priority);
      return;
    }
    slots.flags[slot] = flags | PENDING;
    slots.priority[slot] = priority;
    slots.seq[slot] = this.#seq++;
    const metrics = this.#metrics;
    if (metrics.enabled) {
      slots.addedAt[slot] = this.#clock.monotonic();
      metrics.adds.inc();
      metrics.depth.inc(priority);
    }
    // A key being processed waits for its `done` before it is queued again.
    if ((flags & PROCESSING) !== 0) return;
    this.#ready.push(slot);
    if (this.#getters.length > 0) this.#handOut();
  }

  /**
   * Queues `key` after `delayMs`; the earliest deadline wins when the key waits already. The delay
   * is separate from the ready queue, as in client-go: a key added now and after a delay is
   * processed now and again after the delay.
   *
   * A requeue keeps the key's priority unless `options.priority` says otherwise: the priority it
   * was handed out at while it is processed (so a worker's requeue of a low-priority resync stays
   * low, and one of a live event stays high), else the priority it waits with, else 0.
   */
  addAfter(key: K, delayMs: number, options?: AddOptions): void {
    if (this.#shuttingDown) return;
    if (this.#metrics.enabled) this.#metrics.retries.inc();
    const priority = options?.priority ?? this.#currentPriority(key);
    // `!(x > 0)` also sends NaN here: a delay that is not a positive number means now.
    if (!(delayMs > 0)) {
      this.add(key, { priority });
      return;
    }
    if (this.#delayed.push(key, this.#clock.monotonic() + delayMs, priority)) this.#armTimer();
  }

  /** Queues `key` after the rate limiter's delay for it (a failed attempt), at the priority `addAfter` takes. */
  addRateLimited(key: K, options?: AddOptions): void {
    this.addAfter(key, this.#rateLimiter.when(key), options);
  }

  /** Clears the rate limiter's memory of `key`: call it when `key` was processed successfully. */
  forget(key: K): void {
    this.#rateLimiter.forget(key);
  }

  /** How many times `key` was rate-limited since it was last forgotten. */
  numRequeues(key: K): number {
    return this.#rateLimiter.numRequeues(key);
  }

  /**
   * The next key to process, waiting until there is one. After shutdown, keys still queued are
   * handed out (as client-go does) and then every get resolves to `{ shutdown: true }`.
   */
  get(): Promise<QueueItem<K>> {
    if (this.#ready.size > 0) return Promise.resolve(this.#take());
    if (this.#shuttingDown) return Promise.resolve(SHUTDOWN);
    return new Promise((resolve) => this.#getters.push(resolve));
  }

  /** Marks `key` processed; if it was added meanwhile, it is queued again now. */
  done(key: K): void {
    const slots = this.#slots;
    const slot = slots.slotOf(key);
    if (slot < 0) return;
    const flags = slots.flags[slot] as number;
    if ((flags & PROCESSING) === 0) return;
    slots.flags[slot] = flags & ~PROCESSING;
    this.#processing--;
    if (this.#metrics.enabled)
      this.#metrics.workDuration.observe(
        (this.#clock.monotonic() - (slots.startedAt[slot] as number)) / 1000,
      );
    if ((flags & PENDING) !== 0) {
      this.#ready.push(slot);
      this.#handOut();
    } else {
      slots.release(slot);
    }
    if (this.#processing === 0 && this.#drainWaiters.length > 0) {
      for (const resolve of this.#drainWaiters.splice(0)) resolve();
    }
  }

  /** Stops the queue: adds are ignored, delayed keys dropped, idle getters told to stop. */
  shutDown(): void {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    this.#timer?.abort();
    this.#timer = undefined;
    this.#delayed.clear();
    this.#stopInFlightMetrics();
    for (const resolve of this.#getters.splice(0)) resolve(SHUTDOWN);
  }

  /** Shuts down, then resolves once every key handed out is done. */
  shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.#processing === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  /** The priority a requeue of `key` keeps by default: see `addAfter`. */
  #currentPriority(key: K): number {
    const slots = this.#slots;
    const slot = slots.slotOf(key);
    if (slot < 0) return this.#delayed.priorityOf(key) ?? 0;
    const processing = ((slots.flags[slot] as number) & PROCESSING) !== 0;
    return (processing ? slots.servedPriority[slot] : slots.priority[slot]) as number;
  }

  #raise(slot: number, priority: number): void {
    const slots = this.#slots;
    if (this.#metrics.enabled) {
      this.#metrics.depth.dec(slots.priority[slot] as number);
      this.#metrics.depth.inc(priority);
    }
    if (((slots.flags[slot] as number) & PROCESSING) !== 0) slots.priority[slot] = priority;
    else this.#ready.raise(slot, priority);
  }

  #take(): QueueItem<K> {
    const slot = this.#ready.pop();
    const slots = this.#slots;
    const priority = slots.priority[slot] as number;
    slots.flags[slot] = PROCESSING;
    slots.servedPriority[slot] = priority;
    this.#processing++;
    const metrics = this.#metrics;
    if (metrics.enabled) {
      const startedAt = this.#clock.monotonic();
      slots.startedAt[slot] = startedAt;
      metrics.depth.dec(priority);
      metrics.queueDuration.observe((startedAt - (slots.addedAt[slot] as number)) / 1000);
    }
    return { shutdown: false, key: slots.keys[slot] as K, priority };
  }

  #handOut(): void {
    const getters = this.#getters;
    while (getters.length > 0 && this.#ready.size > 0)
      (getters.shift() as (item: QueueItem<K>) => void)(this.#take());
  }

  #armTimer(): void {
    this.#timer?.abort();
    this.#timer = undefined;
    const readyAt = this.#delayed.nextReadyAt();
    if (readyAt === undefined) return;
    const timer = new AbortController();
    this.#timer = timer;
    // An aborted sleep resolves too: only the sleep still current adds the due keys.
    const wait = Math.min(Math.max(0, readyAt - this.#clock.monotonic()), MAX_TIMER_MS);
    void this.#clock.sleep(wait, timer.signal).then(() => {
      if (!timer.signal.aborted) this.#addDue();
    });
  }

  #addDue(): void {
    this.#timer = undefined;
    const now = this.#clock.monotonic();
    for (let due = this.#delayed.popDue(now); due !== undefined; due = this.#delayed.popDue(now)) {
      this.add(due.key, { priority: due.priority });
    }
    this.#armTimer();
  }

  #inFlightWork(): InFlightWork {
    const now = this.#clock.monotonic();
    const { flags, startedAt, used } = this.#slots;
    let unfinished = 0;
    let longest = 0;
    for (let slot = 0; slot < used; slot++) {
      if (((flags[slot] as number) & PROCESSING) === 0) continue;
      const running = now - (startedAt[slot] as number);
      unfinished += running;
      longest = Math.max(longest, running);
    }
    return { unfinishedSeconds: unfinished / 1000, longestRunningSeconds: longest / 1000 };
  }
}
