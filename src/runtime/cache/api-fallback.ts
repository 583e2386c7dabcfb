import type { Json } from '../api/json.ts';
import type { KubeObject } from '../api/kube-object.ts';
import { ApiReader, type Reader } from '../client/api-reader.ts';
import type { Kind } from '../client/kind.ts';
import { keyString, type ObjectKey } from '../client/object-key.ts';
import type { GetOptions, ListOptions, ObjectList } from '../client/options.ts';
import { requireResourceName } from '../client/resource-path.ts';
import type { Transport } from '../client/transport.ts';
import { readCopy } from './copy-on-read.ts';
import type { SharedInformer } from './informer.ts';
import { selectObjects } from './list-query.ts';

/**
 * Reads the API server in a cache's place and answers as the cache would: it asks only for what
 * the kind's informer watches (its namespaces, one list each, and its label and field selectors),
 * so an operator whose Role allows lists in its own namespaces never sends a cluster-wide one;
 * and it answers through the informer's transform and indexes, so a field selector on an index
 * works as it does on the cache. A get is a list by name within those selectors: the server
 * applies them, and the cache's own permission (list) is all it needs.
 */
export class ApiFallback implements Reader {
  readonly #api: ApiReader;
  readonly #informerFor: <T extends KubeObject>(kind: Kind<T>) => SharedInformer<Json<T>>;

  constructor(
    transport: Transport,
    informerFor: <T extends KubeObject>(kind: Kind<T>) => SharedInformer<Json<T>>,
  ) {
    this.#api = new ApiReader(transport);
    this.#informerFor = informerFor;
  }

  async get<T extends KubeObject>(
    kind: Kind<T>,
    key: ObjectKey,
    options: GetOptions = {},
  ): Promise<Json<T> | undefined> {
    requireResourceName(key.name);
    const informer = this.#informerFor(kind);
    const namespace = kind.namespaced ? key.namespace : undefined;
    informer.requireCovers(namespace);
    const items = await this.#read(kind, informer, namespace, {
      fieldSelector: `metadata.name=${key.name}`,
      signal: options.signal,
    });
    const obj = informer.storeOf(items).get(keyString(namespace ? key : { name: key.name }));
    return obj && readCopy(obj, options);
  }

  async list<T extends KubeObject>(kind: Kind<T>, options: ListOptions = {}): Promise<ObjectList<Json<T>>> {
    const informer = this.#informerFor(kind);
    const namespace = kind.namespaced ? options.namespace : undefined;
    informer.requireCovers(namespace);
    const items: Json<T>[] = [];
    for (const scope of namespace ? [namespace] : informer.namespaces) {
      const read = { labelSelector: options.labelSelector, signal: options.signal };
      for (const item of await this.#read(kind, informer, scope || undefined, read)) items.push(item);
    }
    const store = informer.storeOf(items);
    return {
      items: selectObjects(store, kind, options).map((obj) => readCopy(obj, options)),
      resourceVersion: '',
    };
  }

  async listAll<T extends KubeObject>(kind: Kind<T>, options: ListOptions = {}): Promise<Json<T>[]> {
    return (await this.list(kind, options)).items;
  }

  /** Every object of `namespace` within the informer's selectors and `extra`'s, page by page. */
  #read<T extends KubeObject>(
    kind: Kind<T>,
    informer: SharedInformer<Json<T>>,
    namespace: string | undefined,
    extra: { labelSelector?: string | undefined; fieldSelector?: string; signal: AbortSignal | undefined },
  ): Promise<Json<T>[]> {
    const { labelSelector, fieldSelector } = informer.selectors;
    return this.#api.listAll(kind, {
      namespace,
      labelSelector: both(labelSelector, extra.labelSelector),
      fieldSelector: both(fieldSelector, extra.fieldSelector),
      signal: extra.signal,
    });
  }
}

/** Two selectors as one that requires both (a selector's terms are ANDed). */
function both(a: string | undefined, b: string | undefined): string | undefined {
  return a && b ? `${a},${b}` : a || b || undefined;
}
