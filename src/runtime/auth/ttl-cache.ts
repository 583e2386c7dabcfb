import type { Clock } from '../clock/clock.ts';

interface Entry<V> {
  readonly value: V;
  readonly expiresAt: number;
}

/**
 * A cache whose entries expire after their time to live and which forgets its least recently used
 * entries beyond `capacity`, so a flood of distinct keys (tokens, users) cannot grow it unbounded.
 * Expiry is on the monotonic clock: a wall-clock step neither expires entries early nor keeps them.
 */
export class TtlCache<K, V> {
  readonly #capacity: number;
  readonly #clock: Clock;
  readonly #entries = new Map<K, Entry<V>>();
  readonly #loading = new Map<K, Promise<V>>();

  constructor(capacity: number, clock: Clock) {
    this.#capacity = capacity;
    this.#clock = clock;
  }

  /** The value stored under `key`, unless it has expired. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= this.#clock.monotonic()) return undefined;
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value` for `ttl` milliseconds. */
  set(key: K, value: V, ttl: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: this.#clock.monotonic() + ttl });
    if (this.#entries.size <= this.#capacity) return;
    const oldest = this.#entries.keys().next();
    if (!oldest.done) this.#entries.delete(oldest.value);
  }

  /**
   * The cached value, or `load`'s, stored for `ttl` ms. Concurrent callers for one key share one
   * load; a load that rejects is not stored, so the next caller tries again.
   */
  async getOrLoad(key: K, load: () => Promise<V>, ttl: number): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const pending = this.#loading.get(key);
    if (pending !== undefined) return pending;
    const loading = load().then((value) => {
      this.set(key, value, ttl);
      return value;
    });
    this.#loading.set(key, loading);
    try {
      return await loading;
    } finally {
      this.#loading.delete(key);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
