import type { Json } from '../api/json.ts';
import type { KubeObject } from '../api/kube-object.ts';
import type { RestConfigSource } from '../config/rest-config-source.ts';
import type { Reader } from '../client/api-reader.ts';
import type { CacheReader, ReadScope } from '../client/cache-reader.ts';
import type { Kind } from '../client/kind.ts';
import { keyString, type ObjectKey } from '../client/object-key.ts';
import { requireResourceName } from '../client/resource-path.ts';
import type { GetOptions, ListOptions, ObjectList } from '../client/options.ts';
import { transportFor, type Transport } from '../client/transport.ts';
import type { Clock } from '../clock/clock.ts';
import { silentLogger, type Logger } from '../log/logger.ts';
import type { BackoffOptions } from './backoff.ts';
import { SharedInformer } from './informer.ts';
import { ApiFallback } from './api-fallback.ts';
import type { IndexFunc } from './store.ts';
import { readLabelSelector, selectObjects } from './list-query.ts';
import { readCopy } from './copy-on-read.ts';
import { errorMessage } from '../log/error-message.ts';
import { stripManagedFields, type Transform } from './transform.ts';
import type { ShardSelection } from './shard-selection.ts';

/** A kind whose informer has not synced, and why, as far as its lists tell. */
export interface UnsyncedKind {
  /** `apiVersion/Kind`. */
  readonly kind: string;
  /** The last list or watch error, as a message; undefined when none was seen (still listing). */
  readonly lastError: string | undefined;
}

/** What to cache of one kind, overriding the cache-wide options. */
export interface KindCacheOptions {
  readonly kind: Kind;
  /** Default: the cache's `namespaces`. */
  readonly namespaces?: readonly string[];
  /** Default: the cache's `labelSelector`. */
  readonly labelSelector?: string;
  /** Default: none. */
  readonly fieldSelector?: string;
  /** Default: the cache's `transform`. */
  readonly transform?: Transform;
  /**
   * Hold each object's apiVersion, kind and metadata only, listed and watched as
   * PartialObjectMetadata (the API server leaves spec and status out), for a reader of labels,
   * owners and names that need not hold whole objects; the transform applies after. Default: false.
   */
  readonly metadataOnly?: boolean;
}

/** What {@link newCache} takes. */
export interface CacheOptions {
  /** Where the API server is. Required unless `transport` is given. */
  readonly kubeConfig?: RestConfigSource;
  /** Default: `transportFor(kubeConfig)`. */
  readonly transport?: Transport;
  /** Cache only these namespaces (one watch per namespace and kind). Default: all namespaces. */
  readonly namespaces?: readonly string[];
  /** Cache only objects with these labels. Default: all objects. */
  readonly labelSelector?: string;
  /** Per-kind overrides. Default: none. */
  readonly byKind?: readonly KindCacheOptions[];
  /** Applied to each object before it is stored. Default: `stripManagedFields`. */
  readonly transform?: Transform;
  /** Handlers get every object again as an update this often; 0 turns it off. Default: 10 h (controller-runtime's SyncPeriod). */
  readonly resyncPeriodMs?: number;
  /** Watches end after 1-2× this many seconds and are resumed. Default: 300. */
  readonly minWatchTimeoutSeconds?: number;
  /**
   * A watch that has delivered neither event nor bookmark for this long is restarted on a new
   * request: its connection may have died silently, which over HTTP/1.1 nothing else notices. The
   * API server's watch cache sends a bookmark about once a minute; where a restarted watch goes
   * silent as long without one, the server sends none for the kind, and its quiet watches are left
   * open until a bookmark comes. Default: 75 000.
   */
  readonly watchIdleTimeoutMs?: number;
  /**
   * Informers list the latest state in pages of this many objects. Default: one response, which
   * kube-apiserver 1.34+ serves from its watch cache; set it (500 is client-go's pager's) for a
   * server without a watch cache, whose etcd would otherwise read a whole kind at once.
   */
  readonly listPageSize?: number;
  /** Pauses after list/watch errors. Default: 800 ms doubling to 30 s, jittered. */
  readonly backoff?: BackoffOptions;
  /** Default: Math.random. */
  readonly random?: () => number;
  /** Times watches and list/watch backoff. Default: systemClock. */
  readonly clock?: Clock;
  /** Default: silent. */
  readonly logger?: Logger;
}

/**
 * Shared informers by kind, and reads from them, as controller-runtime's informer cache. The
 * first read or `informerFor` of a kind creates its informer; once `start` has run, informers
 * start as they are created. Reads return copies, so callers may change what they get.
 *
 * @example
 * ```ts
 * const cache = newCache({ kubeConfig });
 * cache.indexField(PodKind, 'spec.nodeName', (pod) => (pod.spec?.nodeName ? [pod.spec.nodeName] : []));
 * cache.informerFor(PodKind).addEventHandler({ onAdd: (pod) => queue.add(pod.metadata!.name!) });
 * cache.start(signal);
 * await cache.waitForCacheSync(signal);
 * const pods = await cache.list(PodKind, { fieldSelector: 'spec.nodeName=node-1' });
 * ```
 */
export class Cache implements CacheReader {
  readonly #options: CacheOptions;
  readonly #transport: Transport;
  readonly #logger: Logger;
  readonly #informers = new Map<Kind, SharedInformer>();
  /** Label selectors set by `selectFor`, over the options' own. */
  readonly #selectors = new Map<Kind, string>();
  /** Server-side shards set by `shardFor`. */
  readonly #shards = new Map<Kind, ShardSelection>();
  /** The API server read as this cache would answer: what the client reads when its write is late. */
  readonly apiFallback: Reader;
  #signal: AbortSignal | undefined;

  constructor(options: CacheOptions) {
    const transport =
      options.transport ?? (options.kubeConfig ? transportFor(options.kubeConfig) : undefined);
    if (!transport) throw new Error('newCache needs a kubeConfig or a transport');
    this.#options = options;
    this.#transport = transport;
    this.#logger = options.logger ?? silentLogger;
    this.apiFallback = new ApiFallback(transport, (kind) => this.informerFor(kind));
  }

  /**
   * The shared informer of `kind`, created on first use and started if the cache is. It holds the
   * objects as the API server sent them: `Json<T>`, whose timestamps are strings.
   */
  informerFor<T extends KubeObject>(kind: Kind<T>): SharedInformer<Json<T>> {
    let informer = this.#informers.get(kind);
    if (!informer) {
      informer = this.#newInformer(kind);
      this.#informers.set(kind, informer);
      if (this.#signal) informer.start(this.#signal);
    }
    return informer as unknown as SharedInformer<Json<T>>;
  }

  /**
   * Caches only the objects of `kind` that match `labelSelector` (a shard's share of a ring, say),
   * in place of the options' selector. Call it before the kind's informer exists; it throws after,
   * for an informer lists with one selector for good.
   */
  selectFor(kind: Kind, labelSelector: string): void {
    if (this.#selectors.get(kind) === labelSelector) return;
    if (this.#informers.has(kind)) {
      throw new Error(
        `the cache already holds ${kind.kind} objects unfiltered: declare the sharded controller of ${kind.kind} before any other watch of it`,
      );
    }
    this.#selectors.set(kind, labelSelector);
  }

  /**
   * Caches only one server-side shard of `kind` (see {@link ShardSelection}), from its informer's
   * first list on; `informerFor(kind).reshard` moves it to another.
   */
  shardFor(kind: Kind, shard: ShardSelection): void {
    const informer = this.#informers.get(kind);
    if (informer) informer.reshard(shard);
    else this.#shards.set(kind, shard);
  }

  /**
   * Indexes `kind` by `field` (any name; a field path reads best), as controller-runtime's
   * IndexField; `list(kind, { fieldSelector: 'field=value' })` then answers from the index. An
   * object `extract` throws on is left out of the cache, logged and counted
   * (`informer_skipped_objects_total`); the informer goes on with the others.
   */
  indexField<T extends KubeObject>(kind: Kind<T>, field: string, extract: IndexFunc<Json<T>>): void {
    this.informerFor(kind).addIndex(field, extract);
  }

  /** Starts every informer, now and to come; they run until `signal` aborts. Returns at once. */
  start(signal: AbortSignal): void {
    this.#signal = signal;
    for (const informer of this.#informers.values()) informer.start(signal);
  }

  /**
   * Serves reads from now on without listing anything yet: a kind's informer starts on its first
   * read (controller-runtime's lazily started informers), the others only with `start`. What a
   * cold standby does, so that its webhooks and checks can read while its controllers wait.
   */
  open(signal: AbortSignal): void {
    this.#signal = signal;
  }

  /** Resolves true once every informer created so far has synced, false if `signal` aborts first. */
  async waitForCacheSync(signal?: AbortSignal): Promise<boolean> {
    const results = await Promise.all([...this.#informers.values()].map((i) => i.waitForSync(signal)));
    return results.every(Boolean);
  }

  /** The informers that have not synced yet, with the last error each has seen. */
  unsynced(): UnsyncedKind[] {
    return [...this.#informers.values()]
      .filter((i) => !i.hasSynced())
      .map((i) => {
        const err = i.lastSyncError();
        return {
          kind: `${i.kind.apiVersion}/${i.kind.kind}`,
          lastError: err === undefined ? undefined : errorMessage(err),
        };
      });
  }

  async get<T extends KubeObject>(
    kind: Kind<T>,
    key: ObjectKey,
    options: GetOptions = {},
  ): Promise<Json<T> | undefined> {
    requireResourceName(key.name);
    const informer = await this.#synced(kind, key.namespace, options.signal);
    const obj = informer.store.get(keyString(kind.namespaced ? key : { name: key.name }));
    return obj && readCopy(obj, options);
  }

  async list<T extends KubeObject>(kind: Kind<T>, options: ListOptions = {}): Promise<ObjectList<Json<T>>> {
    const informer = await this.#synced(kind, options.namespace, options.signal);
    return {
      items: selectObjects(informer.store, kind, options).map((obj) => readCopy(obj, options)),
      resourceVersion: '',
    };
  }

  async listAll<T extends KubeObject>(kind: Kind<T>, options: ListOptions = {}): Promise<Json<T>[]> {
    return (await this.list(kind, options)).items;
  }

  noteWrite(kind: Kind, answer: KubeObject, deleted: boolean): void {
    // No informer yet: the one to come lists the latest state, which holds this write.
    this.#informers.get(kind)?.noteWrite(answer, deleted);
  }

  async waitForWrites(
    kind: Kind,
    read: ReadScope,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    const informer = this.#informers.get(kind);
    if (!informer) return true;
    if ('key' in read) {
      const key = keyString(kind.namespaced ? read.key : { name: read.key.name });
      return informer.waitForWrites({ key }, timeoutMs, signal);
    }
    const namespace = (kind.namespaced && read.namespace) || undefined;
    const labels = read.labelSelector ? readLabelSelector(kind, read.labelSelector) : undefined;
    return informer.waitForWrites({ namespace, labels }, timeoutMs, signal);
  }

  /**
   * The kind's informer once synced; throws rather than answer for a namespace it does not watch
   * (no namespace: all those it watches).
   */
  async #synced<T extends KubeObject>(
    kind: Kind<T>,
    namespace: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<SharedInformer<Json<T>>> {
    const informer = this.informerFor(kind);
    if (!informer.started && this.#signal) informer.start(this.#signal);
    if (!informer.started)
      throw new Error(`The cache is not started: call cache.start(signal) before reading ${kind.kind}.`);
    informer.requireCovers(namespace);
    if (!(await informer.waitForSync(signal))) throw signal?.reason ?? new Error('aborted');
    return informer;
  }

  #newInformer(kind: Kind): SharedInformer {
    const o = this.#options;
    const own = o.byKind?.find((k) => k.kind === kind);
    const namespaces = own?.namespaces ?? o.namespaces;
    const labelSelector = this.#selectors.get(kind) ?? own?.labelSelector ?? o.labelSelector;
    return new SharedInformer({
      kind,
      transport: this.#transport,
      logger: this.#logger.child({ component: 'informer', kind: kind.kind }),
      transform: own?.transform ?? o.transform ?? stripManagedFields,
      resyncPeriodMs: o.resyncPeriodMs ?? 10 * 60 * 60 * 1000,
      ...(namespaces ? { namespaces } : {}),
      ...(labelSelector ? { labelSelector } : {}),
      ...(own?.fieldSelector ? { fieldSelector: own.fieldSelector } : {}),
      ...(own?.metadataOnly ? { metadataOnly: true } : {}),
      ...(this.#shards.has(kind) ? { shard: this.#shards.get(kind) } : {}),
      ...(o.minWatchTimeoutSeconds ? { minWatchTimeoutSeconds: o.minWatchTimeoutSeconds } : {}),
      ...(o.watchIdleTimeoutMs ? { watchIdleTimeoutMs: o.watchIdleTimeoutMs } : {}),
      ...(o.listPageSize ? { pageSize: o.listPageSize } : {}),
      ...(o.backoff ? { backoff: o.backoff } : {}),
      ...(o.random ? { random: o.random } : {}),
      ...(o.clock ? { clock: o.clock } : {}),
    });
  }
}

/** A cache: see {@link Cache}. */
export function newCache(options: CacheOptions): Cache {
  return new Cache(options);
}
