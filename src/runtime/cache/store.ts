import type { KubeObject } from '../api/kube-object.ts';

/** The index values of an object, e.g. `[obj.spec.nodeName]`; none leaves it out of the index. */
export type IndexFunc<T> = (obj: T) => readonly string[];

/** The index every store has: objects by `metadata.namespace`. */
export const NAMESPACE_INDEX = 'metadata.namespace';

/** An index function threw: the store was left as it was. */
export class IndexFunctionError extends Error {
  override readonly name = 'IndexFunctionError';
  /** The index whose function threw. */
  readonly index: string;

  constructor(index: string, key: string, cause: unknown) {
    super(`index "${index}" failed on ${key}: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.index = index;
  }
}

/** What readers of a store may call: everything but the writes. */
export type StoreReader<T extends KubeObject> = Pick<
  Store<T>,
  'get' | 'has' | 'keys' | 'values' | 'byIndex' | 'hasIndex' | 'size'
>;

/** One index: its function, its values to the keys holding them, and each key's values. */
interface Index<T> {
  readonly fn: IndexFunc<T>;
  readonly keys: Map<string, Set<string>>;
  /** What `fn` gave for each stored key: removing an object never calls `fn` again. */
  readonly valuesOf: Map<string, readonly string[]>;
}

/**
 * Objects by `namespace/name` with their indexes, as client-go's ThreadSafeStore. It has one
 * writer, the informer that owns it, so nothing here needs a lock; readers get what is stored
 * (frozen) and copy it themselves. A write whose index function throws changes nothing.
 *
 * The namespace index is read off the keys (the part before the `/`), so it calls no function
 * and keeps no list of values per object, as the other indexes must; an index added under its
 * name replaces it.
 */
export class Store<T extends KubeObject> {
  readonly #items = new Map<string, T>();
  readonly #indexes = new Map<string, Index<T>>();
  /** The keys of each namespace ('' for cluster-scoped objects). */
  readonly #byNamespace = new Map<string, Set<string>>();

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
    return name === NAMESPACE_INDEX || this.#indexes.has(name);
  }

  /**
   * Adds an index and fills it from the objects already stored; re-adding a name replaces it.
   * Throws an {@link IndexFunctionError}, adding nothing, when `fn` throws on a stored object.
   */
  addIndex(name: string, fn: IndexFunc<T>): void {
    const index: Index<T> = { fn, keys: new Map(), valuesOf: new Map() };
    for (const [key, obj] of this.#items) indexOne(index, key, indexValues(name, fn, key, obj));
    this.#indexes.set(name, index);
  }

  /** An empty store with the same indexes. */
  withSameIndexes(): Store<T> {
    const copy = new Store<T>();
    for (const [name, { fn }] of this.#indexes) copy.addIndex(name, fn);
    return copy;
  }

  /** The objects whose index `name` holds `value`. */
  byIndex(name: string, value: string): T[] {
    const index = this.#indexes.get(name);
    if (!index && name !== NAMESPACE_INDEX)
      throw new Error(`No index "${name}": add it first (cache.indexField).`);
    const out: T[] = [];
    for (const key of (index ? index.keys : this.#byNamespace).get(value) ?? []) {
      const obj = this.#items.get(key);
      if (obj) out.push(obj);
    }
    return out;
  }

  /**
   * Stores `obj` under `key` and returns what was there. Throws an {@link IndexFunctionError},
   * keeping what was there, when an index function throws on `obj`.
   */
  set(key: string, obj: T): T | undefined {
    const computed: (readonly string[])[] = [];
    if (this.#indexes.size > 0)
      for (const [name, index] of this.#indexes) computed.push(indexValues(name, index.fn, key, obj));
    const old = this.#items.get(key);
    if (old) this.#unindex(key);
    else addKey(this.#byNamespace, namespaceOf(key), key);
    this.#items.set(key, obj);
    let i = 0;
    for (const index of this.#indexes.values()) indexOne(index, key, computed[i++] ?? []);
    return old;
  }

  /** Removes `key` and returns what was there. */
  delete(key: string): T | undefined {
    const old = this.#items.get(key);
    if (!old) return undefined;
    this.#unindex(key);
    removeKey(this.#byNamespace, namespaceOf(key), key);
    this.#items.delete(key);
    return old;
  }

  #unindex(key: string): void {
    for (const { keys, valuesOf } of this.#indexes.values()) {
      for (const value of valuesOf.get(key) ?? []) removeKey(keys, value, key);
      valuesOf.delete(key);
    }
  }
}

/** The namespace part of a store key: '' for a cluster-scoped object's (no `/`). */
function namespaceOf(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

function addKey(keys: Map<string, Set<string>>, value: string, key: string): void {
  let holders = keys.get(value);
  if (!holders) keys.set(value, (holders = new Set()));
  holders.add(key);
}

function removeKey(keys: Map<string, Set<string>>, value: string, key: string): void {
  const holders = keys.get(value);
  holders?.delete(key);
  if (holders?.size === 0) keys.delete(value);
}

/** What `fn` gives for `obj`, checked before anything is changed. */
function indexValues<T>(name: string, fn: IndexFunc<T>, key: string, obj: T): readonly string[] {
  let values: unknown;
  try {
    values = fn(obj);
  } catch (err) {
    throw new IndexFunctionError(name, key, err);
  }
  if (!Array.isArray(values) || values.some((v) => typeof v !== 'string'))
    throw new IndexFunctionError(
      name,
      key,
      new TypeError('it returned something other than an array of strings'),
    );
  return values as readonly string[];
}

function indexOne<T>(index: Index<T>, key: string, values: readonly string[]): void {
  if (values.length > 0) index.valuesOf.set(key, values);
  for (const value of values) addKey(index.keys, value, key);
}
