/** A key waiting in a {@link DelayHeap} until `readyAt`. */
export interface DelayedKey<K extends string> {
  readonly key: K;
  /** A monotonic clock reading. */
  readyAt: number;
  priority: number;
  /** Position in the heap array, kept so an earlier deadline can move the entry up in place. */
  index: number;
}

/**
 * Keys waiting for a deadline: a binary min-heap on `readyAt`, at most one entry per key. Adding a
 * key that waits already keeps the earlier deadline and the higher priority.
 */
export class DelayHeap<K extends string> {
  readonly #heap: DelayedKey<K>[] = [];
  readonly #byKey = new Map<K, DelayedKey<K>>();

  get size(): number {
    return this.#heap.length;
  }

  /** The earliest deadline, or undefined when empty. */
  nextReadyAt(): number | undefined {
    return this.#heap[0]?.readyAt;
  }

  /** The priority `key` waits with, or undefined when it does not wait. */
  priorityOf(key: K): number | undefined {
    return this.#byKey.get(key)?.priority;
  }

  /** Inserts or updates `key`; true when the earliest deadline of the heap changed. */
  push(key: K, readyAt: number, priority: number): boolean {
    const before = this.nextReadyAt();
    const waiting = this.#byKey.get(key);
    if (waiting === undefined) {
      const entry: DelayedKey<K> = { key, readyAt, priority, index: this.#heap.length };
      this.#heap.push(entry);
      this.#byKey.set(key, entry);
      this.#up(entry.index);
    } else {
      waiting.priority = Math.max(waiting.priority, priority);
      if (readyAt < waiting.readyAt) {
        waiting.readyAt = readyAt;
        this.#up(waiting.index);
      }
    }
    return this.nextReadyAt() !== before;
  }

  /** Removes and returns the earliest entry if it is due at `now`. */
  popDue(now: number): DelayedKey<K> | undefined {
    const top = this.#heap[0];
    if (top === undefined || top.readyAt > now) return undefined;
    const last = this.#heap.pop() as DelayedKey<K>;
    if (last !== top) {
      last.index = 0;
      this.#heap[0] = last;
      this.#down(0);
    }
    this.#byKey.delete(top.key);
    return top;
  }

  clear(): void {
    this.#heap.length = 0;
    this.#byKey.clear();
  }

  #up(index: number): void {
    const heap = this.#heap;
    const entry = heap[index] as DelayedKey<K>;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex] as DelayedKey<K>;
      if (parent.readyAt <= entry.readyAt) break;
      this.#place(parent, index);
      index = parentIndex;
    }
    this.#place(entry, index);
  }

  #down(index: number): void {
    const heap = this.#heap;
    const entry = heap[index] as DelayedKey<K>;
    for (;;) {
      let child = 2 * index + 1;
      if (child >= heap.length) break;
      const right = heap[child + 1];
      if (right !== undefined && right.readyAt < (heap[child] as DelayedKey<K>).readyAt) child++;
      const smaller = heap[child] as DelayedKey<K>;
      if (smaller.readyAt >= entry.readyAt) break;
      this.#place(smaller, index);
      index = child;
    }
    this.#place(entry, index);
  }

  #place(entry: DelayedKey<K>, index: number): void {
    this.#heap[index] = entry;
    entry.index = index;
  }
}
