import type { KubeObject } from '../api/kube-object.ts';
import type { Kind } from '../client/kind.ts';
import { markMetadataOnly, objectMetadataOf } from '../client/partial-object-metadata.ts';
import { matchesFields, parseFieldSelector, type FieldRequirement } from './field-selector.ts';
import { keyString, objectKey } from '../client/object-key.ts';
import type { Transport } from '../client/transport.ts';
import type { Clock } from '../clock/clock.ts';
import { linkedSignal } from '../clock/linked-signal.ts';
import type { Logger } from '../log/logger.ts';
import type { BackoffOptions } from './backoff.ts';
import type { EventHandler, HandlerRegistration } from './event-handler.ts';
import { matchesLabels, type LabelSelector } from './label-selector.ts';
import { parseLabelSelector } from './label-selector-parser.ts';
import { Reflector, type ReflectorSink } from './reflector.ts';
import type { ShardSelection } from './shard-selection.ts';
import { Store, type IndexFunc, type StoreReader } from './store.ts';
import { StoreWriter } from './store-writer.ts';
import type { Transform } from './transform.ts';
import { WriteExpectations, type ExpectationView, type ListScope } from './write-expectations.ts';

/** What a {@link SharedInformer} watches and how; `Cache` fills it from its own options. */
export interface InformerOptions {
  readonly kind: Kind;
  readonly transport: Transport;
  /** Namespaces to watch, one list+watch each. Default: all namespaces, one list+watch. */
  readonly namespaces?: readonly string[];
  /** Default: none. */
  readonly labelSelector?: string;
  /** Default: none. */
  readonly fieldSelector?: string;
  /** Only this shard of the kind (see {@link SharedInformer.reshard}). Default: all. */
  readonly shard?: ShardSelection;
  /** Applied to each object before it is stored. Default: none (Cache passes stripManagedFields). */
  readonly transform?: Transform;
  /** List and watch PartialObjectMetadata, and hold each object's apiVersion, kind and metadata only. Default: false. */
  readonly metadataOnly?: boolean;
  /** Handlers get every object again as an update this often; 0 turns it off. Default: 0. */
  readonly resyncPeriodMs?: number;
  /** Watch timeout, as the reflector's. Default: 300 s. */
  readonly minWatchTimeoutSeconds?: number;
  /** A watch silent this long is restarted, as the reflector's. Default: 75 s. */
  readonly watchIdleTimeoutMs?: number;
  /** List the latest state in pages of this many objects, as the reflector's. Default: one response. */
  readonly pageSize?: number;
  /** Default: 800 ms to 30 s. */
  readonly backoff?: BackoffOptions;
  /** Default: Math.random. */
  readonly random?: () => number;
  /** The reflectors' clock. Default: systemClock. */
  readonly clock?: Clock;
  readonly logger: Logger;
}

/**
 * One kind's list+watch, store and event handlers, shared by every controller that watches the
 * kind, as client-go's SharedIndexInformer: one watch connection however many handlers.
 */
export class SharedInformer<T extends KubeObject = KubeObject> {
  readonly kind: Kind;
  readonly #options: InformerOptions;
  readonly #store = new Store<T>();
  readonly #writer: StoreWriter<T>;
  readonly #handlers = new Set<EventHandler<T>>();
  readonly #progress = new Map<string, string>();
  readonly #listed = new Set<string>();
  readonly #scopes: readonly string[];
  readonly #writes = new WriteExpectations();
  readonly #view: ExpectationView;
  readonly #waiters = new Set<() => boolean>();
  readonly #reflectors = new Map<string, Reflector>();
  readonly #labels: LabelSelector | undefined;
  readonly #fields: readonly FieldRequirement[] | undefined;
  #started = false;
  #shard: ShardSelection | undefined;
  /** Aborts the running reflectors, for `reshard` to start others. */
  #reflecting: AbortController | undefined;
  #signal: AbortSignal | undefined;

  constructor(options: InformerOptions) {
    this.kind = options.kind;
    this.#options = options;
    this.#scopes = options.kind.namespaced && options.namespaces?.length ? [...options.namespaces] : [''];
    this.#writer = new StoreWriter(options.kind, transformOf(options), options.logger);
    this.#labels = options.labelSelector ? parseLabelSelector(options.labelSelector) : undefined;
    this.#fields = options.fieldSelector ? parseFieldSelector(options.fieldSelector) : undefined;
    this.#shard = options.shard;
    this.#view = {
      get: (key) => this.#store.get(key),
      progressOf: (key) => this.#progress.get(this.#scopeOf(key)),
    };
  }

  /** The informer's store: frozen objects, read-only for everyone but the informer. */
  get store(): StoreReader<T> {
    return this.#store;
  }

  /** The namespaces watched, one list+watch each; `['']` for all namespaces. */
  get namespaces(): readonly string[] {
    return this.#scopes;
  }

  /** The selectors every list and watch of the informer carries. */
  get selectors(): { readonly labelSelector?: string; readonly fieldSelector?: string } {
    const { labelSelector, fieldSelector } = this.#options;
    return { ...(labelSelector ? { labelSelector } : {}), ...(fieldSelector ? { fieldSelector } : {}) };
  }

  /** Whether the informer watches `namespace` (every namespace when it is not restricted). */
  covers(namespace: string): boolean {
    return this.#scopes[0] === '' || this.#scopes.includes(namespace);
  }

  /** Throws rather than let a read answer for a namespace the informer does not watch (none: all it watches). */
  requireCovers(namespace: string | undefined): void {
    if (!this.kind.namespaced || !namespace || this.covers(namespace)) return;
    throw new Error(
      `The cache does not hold ${this.kind.kind} objects of namespace ${namespace}: add it to the cache's namespaces, or read with client.direct().`,
    );
  }

  /** Whether the first list of every namespace is in the store. */
  hasSynced(): boolean {
    return this.#listed.size === this.#scopes.length;
  }

  /** Resolves true once synced, false if `signal` aborts first. */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    return this.#until(() => this.hasSynced(), signal);
  }

  /** Adds an index; may be called before or after start (then it throws, adding nothing, if `fn` throws on a stored object). */
  addIndex(name: string, fn: IndexFunc<T>): void {
    this.#store.addIndex(name, fn);
  }

  /** Adds a handler. Objects already in the store are replayed to it as initial-list adds. */
  addEventHandler(handler: EventHandler<T>): HandlerRegistration {
    this.#handlers.add(handler);
    for (const obj of this.#store.values()) this.#call('onAdd', () => handler.onAdd?.(obj, true));
    return { hasSynced: () => this.hasSynced(), remove: () => this.#handlers.delete(handler) };
  }

  /** Starts watching; runs until `signal` aborts. Starting twice is a no-op. */
  start(signal: AbortSignal): void {
    if (this.#started) return;
    this.#started = true;
    this.#signal = signal;
    this.#reflect(signal);
    if (this.#options.resyncPeriodMs) this.#scheduleResync(this.#options.resyncPeriodMs, signal);
  }

  /**
   * Holds another shard of the kind from now on: lists again with `shard`, dropping (with delete
   * events) the objects it no longer selects and adding those it now does, then watches with it.
   */
  reshard(shard: ShardSelection): void {
    this.#shard = shard;
    if (!this.#signal) return;
    this.#reflecting?.abort();
    this.#reflect(this.#signal);
  }

  /** Whether the server applied the shard selector to the last list of every scope. */
  get serverSharded(): boolean {
    return [...this.#reflectors.values()].every((r) => r.serverSharded);
  }

  #reflect(signal: AbortSignal): void {
    const o = this.#options;
    const reflecting = new AbortController();
    this.#reflecting = reflecting;
    const running = AbortSignal.any([signal, reflecting.signal]);
    const shard = this.#shard;
    for (const scope of this.#scopes) {
      const reflector = new Reflector({
        transport: o.transport,
        kind: o.kind,
        sink: this.#sink(scope),
        logger: o.logger,
        ...(scope ? { namespace: scope } : {}),
        ...(o.labelSelector ? { labelSelector: o.labelSelector } : {}),
        ...(o.fieldSelector ? { fieldSelector: o.fieldSelector } : {}),
        ...(shard ? { shard } : {}),
        ...(o.metadataOnly ? { metadataOnly: true } : {}),
        ...(o.minWatchTimeoutSeconds ? { minWatchTimeoutSeconds: o.minWatchTimeoutSeconds } : {}),
        ...(o.watchIdleTimeoutMs ? { watchIdleTimeoutMs: o.watchIdleTimeoutMs } : {}),
        ...(o.pageSize ? { pageSize: o.pageSize } : {}),
        ...(o.backoff ? { backoff: o.backoff } : {}),
        ...(o.random ? { random: o.random } : {}),
        ...(o.clock ? { clock: o.clock } : {}),
      });
      this.#reflectors.set(scope, reflector);
      void reflector.run(running);
    }
  }

  /** The last list or watch error of a scope that has not synced yet, for a start-up that times out. */
  lastSyncError(): unknown {
    const unsynced = [...this.#reflectors].filter(([scope]) => !this.#listed.has(scope));
    return unsynced.find(([, r]) => r.lastError !== undefined)?.[1].lastError;
  }

  get started(): boolean {
    return this.#started;
  }

  /**
   * Notes a write of the client (read-your-writes), unless the informer could never show it: in a
   * namespace it does not watch, or with labels or fields its selectors exclude. Such a write, when the
   * store holds the object, is awaited as a delete: the watch drops the object that left, unless it
   * came back before the informer read that far.
   */
  noteWrite(answer: KubeObject, deleted: boolean): void {
    const key = keyString(objectKey(answer));
    if (this.kind.namespaced && !this.covers(answer.metadata?.namespace ?? '')) return;
    if (!deleted && !this.#selects(answer)) {
      const stored = this.#store.get(key);
      if (stored) this.#writes.noteLeft(key, stored, answer);
      return;
    }
    this.#writes.note(key, answer, deleted);
  }

  /** Whether the informer's label and field selectors let `obj` in: a write it can show. */
  #selects(obj: KubeObject): boolean {
    if (this.#labels && !matchesLabels(this.#labels, obj.metadata?.labels)) return false;
    return !this.#fields || matchesFields(this.#fields, obj);
  }

  /**
   * Resolves true once the noted writes `read` could show are in the store: those to `read.key`,
   * or those in `read.namespace` (all, when undefined) and matching `read.labels`.
   */
  waitForWrites(
    read: { readonly key: string } | ListScope,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    const settled = (): boolean =>
      'key' in read ? this.#writes.settle(read.key, this.#view) : this.#writes.settleAll(this.#view, read);
    if (settled()) return Promise.resolve(true);
    // Cleared and unhooked once settled: this runs for reads after the client's own writes. The
    // timer is unref'd, as AbortSignal.timeout's: a pending read does not hold the process.
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs).unref();
    const linked = signal ? linkedSignal([signal, timeout.signal]) : undefined;
    return this.#until(settled, linked?.signal ?? timeout.signal).finally(() => {
      clearTimeout(timer);
      linked?.release();
    });
  }

  /**
   * A store of `items` read from the API server, transformed and indexed as this informer's own:
   * what the informer would hold of them. Objects it would skip are left out, unreported (the
   * informer reports them as it meets them).
   */
  storeOf(items: readonly KubeObject[]): StoreReader<T> {
    const store = this.#store.withSameIndexes();
    for (const raw of items) this.#writer.put(store, keyString(objectKey(raw)), raw, false);
    return store;
  }

  #sink(scope: string): ReflectorSink {
    let seen = new Set<string>();
    return {
      listStart: () => {
        seen = new Set();
      },
      listItems: (items) => this.#listItems(scope, items, seen),
      listEnd: (resourceVersion) => {
        this.#dropUnlisted(scope, seen);
        this.#listed.add(scope);
        this.#advance(scope, resourceVersion, true);
      },
      change: (type, obj) => this.#change(type, obj),
      progress: (resourceVersion) => this.#advance(scope, resourceVersion, false),
    };
  }

  /** Stores listed objects as they come, announcing the new and the changed ones. */
  #listItems(scope: string, items: readonly KubeObject[], seen: Set<string>): void {
    const initial = !this.#listed.has(scope);
    for (const raw of items) {
      const key = keyString(objectKey(raw));
      // Seen even when skipped: a version the cache already holds stays (see StoreWriter).
      seen.add(key);
      const put = this.#writer.put(this.#store, key, raw);
      if (!put) continue;
      const { old, obj } = put;
      if (!old) this.#emit('onAdd', (h) => h.onAdd?.(obj, initial));
      else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion)
        this.#emit('onUpdate', (h) => h.onUpdate?.(old, obj));
    }
  }

  /** After a whole list: the objects of the scope it did not hold are gone. */
  #dropUnlisted(scope: string, seen: Set<string>): void {
    for (const key of [...this.#store.keys()]) {
      if (seen.has(key) || this.#scopeOf(key) !== scope) continue;
      const gone = this.#store.delete(key);
      if (gone) this.#emit('onDelete', (h) => h.onDelete?.(gone, true));
    }
  }

  #change(type: 'ADDED' | 'MODIFIED' | 'DELETED', raw: KubeObject): void {
    const key = keyString(objectKey(raw));
    if (type === 'DELETED') {
      const last = this.#store.delete(key);
      // An object the cache never held was never announced: no delete either, as client-go.
      if (!last) return;
      const obj = this.#writer.prepare(raw) ?? last;
      this.#emit('onDelete', (h) => h.onDelete?.(obj, false));
      return;
    }
    const put = this.#writer.put(this.#store, key, raw);
    if (!put) return;
    const { old, obj } = put;
    if (old) this.#emit('onUpdate', (h) => h.onUpdate?.(old, obj));
    else this.#emit('onAdd', (h) => h.onAdd?.(obj, false));
  }

  /** Records how far a scope has read and wakes the waiters whose condition may now hold. */
  #advance(scope: string, resourceVersion: string, listed: boolean): void {
    if (resourceVersion || listed) this.#progress.set(scope, resourceVersion);
    // Drops the writes now visible even when nobody reads them back; few are ever in flight.
    if (this.#writes.size > 0) this.#writes.settleAll(this.#view);
    for (const waiter of this.#waiters) waiter();
  }

  #scopeOf(key: string): string {
    if (this.#scopes.length === 1) return this.#scopes[0] ?? '';
    return key.slice(0, key.indexOf('/'));
  }

  #emit(event: keyof EventHandler<T>, call: (h: EventHandler<T>) => void): void {
    // No closure per handler: this runs for every object of every list.
    for (const handler of this.#handlers) {
      try {
        call(handler);
      } catch (err) {
        this.#handlerFailed(event, err);
      }
    }
  }

  /** A failing handler is logged, and neither stops the informer nor the other handlers. */
  #call(event: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.#handlerFailed(event, err);
    }
  }

  #handlerFailed(event: string, err: unknown): void {
    this.#options.logger.error('event handler failed', { kind: this.kind.kind, event, err });
  }

  /** Resolves true when `condition` holds (checked now and after each change), false when `signal` aborts. */
  #until(condition: () => boolean, signal?: AbortSignal): Promise<boolean> {
    if (condition()) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const finish = (result: boolean): void => {
        this.#waiters.delete(waiter);
        signal?.removeEventListener('abort', onAbort);
        resolve(result);
      };
      const waiter = (): boolean => {
        const met = condition();
        if (met) finish(true);
        return met;
      };
      const onAbort = (): void => finish(false);
      this.#waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #scheduleResync(periodMs: number, signal: AbortSignal): void {
    const timer = setInterval(() => {
      for (const obj of this.#store.values()) this.#emit('onUpdate', (h) => h.onUpdate?.(obj, obj));
    }, periodMs);
    timer.unref();
    signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  }
}

/** The informer's transform, after the cut to metadata when it holds metadata only. */
function transformOf(options: InformerOptions): Transform | undefined {
  const { transform, metadataOnly } = options;
  if (!metadataOnly) return transform;
  // Marked as cached: a whole write of it would drop its spec and status.
  return (obj) => markMetadataOnly(transform ? transform(objectMetadataOf(obj)) : objectMetadataOf(obj));
}
