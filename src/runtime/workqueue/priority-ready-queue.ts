import type { KeySlots } from './key-slots.ts';

/**
 * Slots of one priority, first in first out: a ring of (slot, ticket at push) pairs in an
 * Int32Array, so a push or a pop allocates nothing and the garbage collector never scans it.
 */
interface Band {
  readonly priority: number;
  /** Pairs from `head`, wrapping; its length is a power of two. */
  ring: Int32Array;
  /** Index of the first pair. */
  head: number;
  /** Pairs in the ring, leftovers of priority changes included. */
  count: number;
  /** Pairs whose ticket is still current. */
  live: number;
}

const INITIAL_PAIRS = 16;

/**
 * The keys ready to be handed out, by priority (higher first) and within one priority in the order
 * they became ready; the keys are slots of a {@link KeySlots}, which holds their priority, order and
 * ticket.
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
  readonly #slots: KeySlots<K>;
  /** Sorted by priority, highest first; bands are few (controller-runtime uses two or three). */
  readonly #bands: Band[] = [];
  readonly #maxOvertakes: number;
  #size = 0;
  #overtakes = 0;

  constructor(slots: KeySlots<K>, maxOvertakes: number) {
    this.#slots = slots;
    this.#maxOvertakes = maxOvertakes;
  }

  get size(): number {
    return this.#size;
  }

  /** Queues a slot at its `priority`. */
  push(slot: number): void {
    const slots = this.#slots;
    const ticket = ((slots.ticket[slot] as number) + 1) | 0;
    slots.ticket[slot] = ticket;
    const band = this.#band(slots.priority[slot] as number);
    if (band.count * 2 === band.ring.length) grow(band);
    const pair = ((band.head + band.count) * 2) & (band.ring.length - 1);
    band.ring[pair] = slot;
    band.ring[pair + 1] = ticket;
    band.count++;
    band.live++;
    this.#size++;
  }

  /** Moves a queued slot to a higher priority, keeping its age. */
  raise(slot: number, priority: number): void {
    const from = this.#band(this.#slots.priority[slot] as number);
    // A band left with only leftovers may never be popped again: drop them now.
    if (--from.live === 0) empty(from);
    this.#size--;
    this.#slots.priority[slot] = priority;
    this.push(slot);
  }

  /** The next slot to hand out, or -1 when empty. */
  pop(): number {
    if (this.#size === 0) return -1;
    let band = this.#bands[0] as Band;
    if (band.live === this.#size) this.#overtakes = 0;
    else band = this.#choose();
    const slot = this.#peek(band);
    band.head = (band.head + 1) & ((band.ring.length >> 1) - 1);
    band.count--;
    this.#size--;
    if (--band.live === 0) empty(band);
    return slot;
  }

  /** The band to pop from when the first band does not hold every ready key. */
  #choose(): Band {
    const band = this.#firstLiveBand();
    if (band.live === this.#size) {
      this.#overtakes = 0;
      return band;
    }
    if (++this.#overtakes <= this.#maxOvertakes) return band;
    this.#overtakes = 0;
    return this.#longestWaitingBand();
  }

  #firstLiveBand(): Band {
    for (const band of this.#bands) if (band.live > 0) return band;
    throw new Error('priority ready queue: size and bands disagree');
  }

  #longestWaitingBand(): Band {
    const seq = this.#slots.seq;
    let oldest: Band | undefined;
    let oldestSeq = Infinity;
    for (const band of this.#bands) {
      if (band.live === 0) continue;
      const bandSeq = seq[this.#peek(band)] as number;
      if (bandSeq < oldestSeq) {
        oldest = band;
        oldestSeq = bandSeq;
      }
    }
    return oldest as Band;
  }

  /** The first current slot of a band that has one, dropping leftovers before it. */
  #peek(band: Band): number {
    const ticket = this.#slots.ticket;
    const mask = (band.ring.length >> 1) - 1;
    for (;;) {
      const slot = band.ring[band.head * 2] as number;
      if (ticket[slot] === band.ring[band.head * 2 + 1]) return slot;
      band.head = (band.head + 1) & mask;
      band.count--;
    }
  }

  #band(priority: number): Band {
    const bands = this.#bands;
    let at = 0;
    for (; at < bands.length; at++) {
      const band = bands[at] as Band;
      if (band.priority === priority) return band;
      if (band.priority < priority) break;
    }
    const band: Band = { priority, ring: new Int32Array(INITIAL_PAIRS * 2), head: 0, count: 0, live: 0 };
    bands.splice(at, 0, band);
    return band;
  }
}

/** Doubles a full ring, unwrapping its pairs to start at 0. */
function grow(band: Band): void {
  const ring = new Int32Array(band.ring.length * 2);
  const start = band.head * 2;
  ring.set(band.ring.subarray(start));
  ring.set(band.ring.subarray(0, start), band.ring.length - start);
  band.ring = ring;
  band.head = 0;
}

function empty(band: Band): void {
  band.head = 0;
  band.count = 0;
}
