/**
 * A Map that forgets its least recently used entries beyond `capacity`, so per-object state (rate
 * limits, event series) stays bounded however many objects a controller sees.
 */
export class LruMap<K, V> {
  readonly #capacity: number;
  readonly #entries = new Map<K, V>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) this.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size <= this.#capacity) return;
    const oldest = this.#entries.keys().next();
    if (!oldest.done) this.#entries.delete(oldest.value);
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }
}
