/** Bit of `KeySlots.flags`: added and not yet handed out. */
export const PENDING = 1;
/** Bit of `KeySlots.flags`: handed out and not yet done. */
export const PROCESSING = 2;

const INITIAL_CAPACITY = 64;

/**
 * Everything the queue knows of the keys it holds. Each key has a numbered slot, and each field is
 * a typed array indexed by slot: a key costs no object of its own (only its entry in the index),
 * so filling a queue with many keys leaves the garbage collector little to copy or trace, and an
 * operation touches only the fields it needs (a duplicate add reads one byte of `flags`). A slot is held while its key is pending (client-go's "dirty" set) or processing, or
 * both, and reused once released.
 */
export class KeySlots<K extends string> {
  /**
   * Slot by key, in a prototype-less object, which V8 keeps as a hash table of interned strings. A
   * `Map` reaches a string entry through three dependent loads and compares a composed key (what
   * `${namespace}/${name}` makes) with another of the same length through a runtime call; here a
   * key is interned on its first use and then found by one probe that compares references, which
   * makes a duplicate add about twice as fast; the first use of each key string costs more.
   */
  readonly #index = Object.create(null) as Record<string, number | undefined>;
  readonly #free: number[] = [];
  #used = 0;
  #capacity = INITIAL_CAPACITY;
  /** The key of each slot; undefined in a free one. */
  readonly keys: (K | undefined)[] = [];
  /** PENDING and PROCESSING bits; 0 in a free slot. */
  flags = new Uint8Array(INITIAL_CAPACITY);
  /** Priority of the pending add: the highest it was given. */
  priority = new Float64Array(INITIAL_CAPACITY);
  /** Priority the key was handed out at, while processing: requeues of it default to this one. */
  servedPriority = new Float64Array(INITIAL_CAPACITY);
  /** Order of the pending add across the queue: the fairness rule serves the lowest first. */
  seq = new Float64Array(INITIAL_CAPACITY);
  /** Monotonic clock reading of the pending add, for `workqueue_queue_duration_seconds`; kept only with metrics. */
  addedAt = new Float64Array(INITIAL_CAPACITY);
  /** Monotonic clock reading of the hand-out, for the work duration metrics; kept only with metrics. */
  startedAt = new Float64Array(INITIAL_CAPACITY);
  /**
   * Changes at every push into the ready queue, wrapping as an int32, and is kept when the slot is
   * released: a ready-queue entry holding another value is a leftover of a priority change, or of
   * an earlier key of the slot, and is skipped.
   */
  ticket = new Int32Array(INITIAL_CAPACITY);

  /** One past the highest slot ever held: every held slot is below it. */
  get used(): number {
    return this.#used;
  }

  /** The slot holding `key`, or -1. */
  slotOf(key: K): number {
    return this.#index[key] ?? -1;
  }

  /** The slot holding `key`, claimed for it if there is none: the flags of a new slot are 0. */
  slotFor(key: K): number {
    const held = this.#index[key];
    if (held !== undefined) return held;
    let slot = this.#free.pop();
    if (slot === undefined) {
      slot = this.#used++;
      if (slot === this.#capacity) this.#grow();
    }
    this.#index[key] = slot;
    this.keys[slot] = key;
    return slot;
  }

  /** Frees `slot` and forgets its key. */
  release(slot: number): void {
    Reflect.deleteProperty(this.#index, this.keys[slot] as K);
    this.keys[slot] = undefined;
    this.flags[slot] = 0;
    this.#free.push(slot);
  }

  #grow(): void {
    const capacity = this.#capacity * 2;
    this.flags = copy(this.flags, new Uint8Array(capacity));
    this.priority = copy(this.priority, new Float64Array(capacity));
    this.servedPriority = copy(this.servedPriority, new Float64Array(capacity));
    this.seq = copy(this.seq, new Float64Array(capacity));
    this.addedAt = copy(this.addedAt, new Float64Array(capacity));
    this.startedAt = copy(this.startedAt, new Float64Array(capacity));
    this.ticket = copy(this.ticket, new Int32Array(capacity));
    this.#capacity = capacity;
  }
}

function copy<A extends Uint8Array | Float64Array | Int32Array>(from: A, to: A): A {
  to.set(from);
  return to;
}
