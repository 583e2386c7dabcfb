/** What an {@link EventQueue} holds: items of one key are written one at a time, in order. */
export interface Keyed {
  readonly key: string;
}

/**
 * A bounded queue of event writes with several writers, as client-go's broadcaster (1,000 queued,
 * 8 workers): a write the API server is slow to answer holds up only later writes of its own key
 * (an event series must be created before it is counted), never the others. A repeat of an item
 * still waiting is folded into it rather than queued again; past `capacity` items, `offer` refuses.
 */
export class EventQueue<T extends Keyed> {
  readonly #capacity: number;
  readonly #writers: number;
  readonly #write: (item: T) => Promise<void>;
  readonly #waiting = new Map<string, T>();
  readonly #order: T[] = [];
  readonly #busy = new Set<string>();
  #idle: (() => void)[] = [];

  constructor(capacity: number, writers: number, write: (item: T) => Promise<void>) {
    this.#capacity = capacity;
    this.#writers = writers;
    this.#write = write;
  }

  /** Items waiting for a writer. */
  get length(): number {
    return this.#order.length;
  }

  /** Whether `offer(key, …)` would take an item now: one of `key` is waiting, or there is room. */
  accepts(key: string): boolean {
    return this.#waiting.has(key) || this.#order.length < this.#capacity;
  }

  /**
   * Queues the item `make` builds, or, when one of `key` is waiting already, hands it to `fold`.
   * Says which, or `full` when the queue holds `capacity` items and nothing was queued.
   */
  offer(key: string, make: () => T, fold: (waiting: T) => void): 'queued' | 'folded' | 'full' {
    const waiting = this.#waiting.get(key);
    if (waiting) {
      fold(waiting);
      return 'folded';
    }
    if (this.#order.length >= this.#capacity) return 'full';
    const item = make();
    this.#waiting.set(key, item);
    this.#order.push(item);
    this.#pump();
    return 'queued';
  }

  /** Resolves once nothing is queued or being written. */
  idle(): Promise<void> {
    if (this.#order.length === 0 && this.#busy.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Hands waiting items to free writers, oldest first, skipping keys being written. */
  #pump(): void {
    while (this.#busy.size < this.#writers) {
      const at = this.#order.findIndex((item) => !this.#busy.has(item.key));
      if (at < 0) break;
      const [item] = this.#order.splice(at, 1);
      if (!item) break;
      this.#waiting.delete(item.key);
      this.#busy.add(item.key);
      const done = (): void => {
        this.#busy.delete(item.key);
        this.#pump();
        this.#wakeIfIdle();
      };
      void this.#write(item).then(done, done);
    }
  }

  #wakeIfIdle(): void {
    if (this.#order.length > 0 || this.#busy.size > 0) return;
    const idle = this.#idle;
    this.#idle = [];
    for (const resolve of idle) resolve();
  }
}
