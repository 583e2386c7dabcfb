import type { PendingKey } from './pending-key.ts';

/** Keys of one priority, first in first out: an array read from a moving head. */
interface Band<K extends string> {
  readonly priority: number;
  /** Consumed slots before `head` are cleared so their keys can be collected. */
  entries: (PendingKey<K> | undefined)[];
  head: number;
  /** Entries from `head` on that are not stale. */
  live: number;
}

/** Compacting only past this many consumed entries keeps the copies rare and cheap. */
const COMPACT_AFTER = 1024;

/**
 * The keys ready to be handed out, by priority (higher first) and within one priority in the order
 * they became ready.
 *
 * Strict priority would starve low priorities under a steady flow of higher ones (controller-
 * runtime's priority queue has that failure). Here, after `maxOvertakes` consecutive pops served a
 * higher priority while a lower one waited, the next pop serves the key waiting longest, whatever
 * its priority. A waiting key so gets at least one in every `maxOvertakes + 1` pops until only keys
 * added before it are ahead of it, and those are finitely many: every key is served. Counting pops
 * rather than waiting time keeps the rule independent of the clock, and high priorities keep their
 * lead under overload, where aging by time would end up serving everything in arrival order.
 */
export class PriorityReadyQueue<K extends string> {
  /** Sorted by priority, highest first; bands are few (controller-runtime uses two or three). */
  readonly #bands: Band<K>[] = [];
  readonly #maxOvertakes: number;
  #size = 0;
  #overtakes = 0;

  constructor(maxOvertakes: number) {
    this.#maxOvertakes = maxOvertakes;
  }

  get size(): number {
    return this.#size;
  }

  push(entry: PendingKey<K>): void {
    const band = this.#band(entry.priority);
    band.entries.push(entry);
    band.live++;
    this.#size++;
  }

  /** Moves a queued key to a higher priority; returns the entry that now stands for it. */
  raise(entry: PendingKey<K>, priority: number): PendingKey<K> {
    entry.stale = true;
    const from = this.#band(entry.priority);
    // A band left with only stale entries may never be popped again: drop them now.
    if (--from.live === 0) this.#empty(from);
    this.#size--;
    const raised: PendingKey<K> = { ...entry, priority, stale: false };
    this.push(raised);
    return raised;
  }

  pop(): PendingKey<K> | undefined {
    if (this.#size === 0) return undefined;
    let band = this.#firstLiveBand();
    if (band.live === this.#size) {
      this.#overtakes = 0;
    } else if (++this.#overtakes > this.#maxOvertakes) {
      this.#overtakes = 0;
      band = this.#longestWaitingBand();
    }
    return this.#shift(band);
  }

  #firstLiveBand(): Band<K> {
    for (const band of this.#bands) if (band.live > 0) return band;
    throw new Error('priority ready queue: size and bands disagree');
  }

  #longestWaitingBand(): Band<K> {
    let oldest: Band<K> | undefined;
    let oldestSeq = Infinity;
    for (const band of this.#bands) {
      if (band.live === 0) continue;
      const seq = this.#peek(band).seq;
      if (seq < oldestSeq) {
        oldest = band;
        oldestSeq = seq;
      }
    }
    return oldest as Band<K>;
  }

  /** The first live entry of a band that has one, dropping stale entries before it. */
  #peek(band: Band<K>): PendingKey<K> {
    let entry = band.entries[band.head] as PendingKey<K>;
    while (entry.stale) entry = band.entries[++band.head] as PendingKey<K>;
    return entry;
  }

  #shift(band: Band<K>): PendingKey<K> {
    const entry = this.#peek(band);
    band.entries[band.head++] = undefined;
    band.live--;
    this.#size--;
    if (band.live === 0) {
      this.#empty(band);
    } else if (band.head > COMPACT_AFTER && band.head * 2 > band.entries.length) {
      band.entries = band.entries.slice(band.head);
      band.head = 0;
    }
    return entry;
  }

  #empty(band: Band<K>): void {
    band.entries.length = 0;
    band.head = 0;
  }

  #band(priority: number): Band<K> {
    const bands = this.#bands;
    let at = 0;
    for (; at < bands.length; at++) {
      const band = bands[at] as Band<K>;
      if (band.priority === priority) return band;
      if (band.priority < priority) break;
    }
    const band: Band<K> = { priority, entries: [], head: 0, live: 0 };
    bands.splice(at, 0, band);
    return band;
  }
}
