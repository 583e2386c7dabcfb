import type { KeyRecord } from './key-record.ts';

/**
 * Keys of one priority, first in first out: parallel arrays (record, ticket at push) read from a
 * moving head, so a push allocates nothing.
 */
interface Band<K extends string> {
  readonly priority: number;
  /** Consumed slots before `head` are cleared so their records can be collected. */
  records: (KeyRecord<K> | undefined)[];
  tickets: number[];
  head: number;
  /** Slots from `head` on whose ticket is still current. */
  live: number;
}

/** Compacting only past this many consumed slots keeps the copies rare and cheap. */
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
  #tickets = 0;

  constructor(maxOvertakes: number) {
    this.#maxOvertakes = maxOvertakes;
  }

  get size(): number {
    return this.#size;
  }

  /** Queues a record at its priority. */
  push(record: KeyRecord<K>): void {
    const band = this.#band(record.priority);
    record.ticket = ++this.#tickets;
    band.records.push(record);
    band.tickets.push(record.ticket);
    band.live++;
    this.#size++;
  }

  /** Moves a queued record to a higher priority, keeping its age. */
  raise(record: KeyRecord<K>, priority: number): void {
    const from = this.#band(record.priority);
    // A band left with only leftovers may never be popped again: drop them now.
    if (--from.live === 0) this.#empty(from);
    this.#size--;
    record.priority = priority;
    this.push(record);
  }

  pop(): KeyRecord<K> | undefined {
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

  /** The first current record of a band that has one, dropping leftovers before it. */
  #peek(band: Band<K>): KeyRecord<K> {
    for (;;) {
      const record = band.records[band.head] as KeyRecord<K>;
      if (record.ticket === band.tickets[band.head]) return record;
      band.records[band.head++] = undefined;
    }
  }

  #shift(band: Band<K>): KeyRecord<K> {
    const record = this.#peek(band);
    band.records[band.head++] = undefined;
    band.live--;
    this.#size--;
    if (band.live === 0) {
      this.#empty(band);
    } else if (band.head > COMPACT_AFTER && band.head * 2 > band.records.length) {
      band.records = band.records.slice(band.head);
      band.tickets = band.tickets.slice(band.head);
      band.head = 0;
    }
    return record;
  }

  #empty(band: Band<K>): void {
    band.records.length = 0;
    band.tickets.length = 0;
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
    const band: Band<K> = { priority, records: [], tickets: [], head: 0, live: 0 };
    bands.splice(at, 0, band);
    return band;
  }
}
