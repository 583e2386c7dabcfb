import type { KubernetesObject } from '@kubernetes/client-node';

/** The index values of an object, e.g. `[obj.spec.nodeName]`; none leaves it out of the index. */
export type IndexFunc<T> = (obj: T) => readonly string[];

/** The index every store has: objects by `metadata.namespace`. */
export const NAMESPACE_INDEX = 'metadata.namespace';

/**
 * Objects by `namespace/name` with their indexes, as client-go's ThreadSafeStore. It has one
 * writer, the informer that owns it, so nothing here needs a lock; readers get what is stored
 * (frozen) and copy it themselves.
 */
export class Store<T extends KubernetesObject> {
  readonly #items = new Map<string, T>();
  /** Index name to its function and its content: index value to the keys holding it. */
  readonly #indexes = new Map<string, { fn: IndexFunc<T>; keys: Map<string, Set<string>> }>();

  constructor() {
    this.addIndex(NAMESPACE_INDEX, (obj) => [obj.metadata?.namespace ?? '']);
  }

  get size(): number {
    return this.#items.size;
  }

  get(key: string): T | undefined {
    return this.#items.get(key);
  }

  has(key: string): boolean {
    return this.#items.has(key);
  }

  keys(): IterableIterator<string> {
    return this.#items.keys();
  }

  values(): IterableIterator<T> {
    return this.#items.values();
  }

  hasIndex(name: string): boolean {
    return this.#indexes.has(name);
  }

  /** Adds an index and fills it from the objects already stored. Re-adding a name replaces it. */
  addIndex(name: string, fn: IndexFunc<T>): void {
    const index = { fn, keys: new Map<string, Set<string>>() };
    this.#indexes.set(name, index);
    for (const [key, obj] of this.#items) indexOne(index, key, obj);
  }

  /** The objects whose index `name` holds `value`. */
  byIndex(name: string, value: string): T[] {
    const index = this.#indexes.get(name);
    if (!index) throw new Error(`No index "${name}": add it first (cache.indexField).`);
    const out: T[] = [];
    for (const key of index.keys.get(value) ?? []) {
      const obj = this.#items.get(key);
      if (obj) out.push(obj);
    }
    return out;
  }

  /** Stores `obj` under `key` and returns what was there. */
  set(key: string, obj: T): T | undefined {
    const old = this.#items.get(key);
    if (old) this.#unindex(key, old);
    this.#items.set(key, obj);
    for (const index of this.#indexes.values()) indexOne(index, key, obj);
    return old;
  }

  /** Removes `key` and returns what was there. */
  delete(key: string): T | undefined {
    const old = this.#items.get(key);
    if (!old) return undefined;
    this.#unindex(key, old);
    this.#items.delete(key);
    return old;
  }

  #unindex(key: string, obj: T): void {
    for (const { fn, keys } of this.#indexes.values()) {
      for (const value of fn(obj)) {
        const holders = keys.get(value);
        holders?.delete(key);
        if (holders?.size === 0) keys.delete(value);
      }
    }
  }
}

function indexOne<T>(index: { fn: IndexFunc<T>; keys: Map<string, Set<string>> }, key: string, obj: T): void {
  for (const value of index.fn(obj)) {
    let holders = index.keys.get(value);
    if (!holders) index.keys.set(value, (holders = new Set()));
    holders.add(key);
  }
}
