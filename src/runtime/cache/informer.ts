import type { KubernetesObject } from '@kubernetes/client-node';
import type { Kind } from '../client/kind.ts';
import { keyString, objectKey } from '../client/object-key.ts';
import type { Transport } from '../client/transport.ts';
import type { Clock } from '../clock/clock.ts';
import type { Logger } from '../log/logger.ts';
import type { BackoffOptions } from './backoff.ts';
import type { EventHandler, HandlerRegistration } from './event-handler.ts';
import { Reflector, type ReflectorSink } from './reflector.ts';
import { reportSkippedObject } from './skipped-object.ts';
import { Store, type IndexFunc } from './store.ts';
import { deepFreeze } from './copy-on-read.ts';
import type { Transform } from './transform.ts';
import { WriteExpectations, type ExpectationView } from './write-expectations.ts';

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
  /** Applied to each object before it is stored. Default: none (Cache passes stripManagedFields). */
  readonly transform?: Transform;
  /** Handlers get every object again as an update this often; 0 turns it off. Default: 0. */
  readonly resyncPeriodMs?: number;
  /** Watch timeout, as the reflector's. Default: 300 s. */
  readonly minWatchTimeoutSeconds?: number;
  /** Objects per list page. Default: 500. */
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
export class SharedInformer<T extends KubernetesObject = KubernetesObject> {
  readonly kind: Kind;
  readonly #options: InformerOptions;
  readonly #store = new Store<T>();
  readonly #handlers = new Set<EventHandler<T>>();
  readonly #progress = new Map<string, string>();
  readonly #listed = new Set<string>();
  readonly #scopes: readonly string[];
  readonly #writes = new WriteExpectations();
  readonly #view: ExpectationView;
  readonly #waiters = new Set<() => boolean>();
  readonly #reflectors: Reflector[] = [];
  #started = false;

  constructor(options: InformerOptions) {
    this.kind = options.kind;
    this.#options = options;
    this.#scopes = options.kind.namespaced && options.namespaces?.length ? [...options.namespaces] : [''];
    this.#view = {
      get: (key) => this.#store.get(key),
      progressOf: (key) => this.#progress.get(this.#scopeOf(key)),
    };
  }

  /** The informer's store: frozen objects, read-only for everyone but the informer. */
  get store(): Pick<Store<T>, 'get' | 'has' | 'keys' | 'values' | 'byIndex' | 'hasIndex' | 'size'> {
    return this.#store;
  }

  /** Whether the informer watches `namespace` (every namespace when it is not restricted). */
  covers(namespace: string): boolean {
    return this.#scopes[0] === '' || this.#scopes.includes(namespace);
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
    const o = this.#options;
    for (const scope of this.#scopes) {
      const reflector = new Reflector({
        transport: o.transport,
        kind: o.kind,
        sink: this.#sink(scope),
        logger: o.logger,
        ...(scope ? { namespace: scope } : {}),
        ...(o.labelSelector ? { labelSelector: o.labelSelector } : {}),
        ...(o.fieldSelector ? { fieldSelector: o.fieldSelector } : {}),
        ...(o.minWatchTimeoutSeconds ? { minWatchTimeoutSeconds: o.minWatchTimeoutSeconds } : {}),
        ...(o.pageSize ? { pageSize: o.pageSize } : {}),
        ...(o.backoff ? { backoff: o.backoff } : {}),
        ...(o.random ? { random: o.random } : {}),
        ...(o.clock ? { clock: o.clock } : {}),
      });
      this.#reflectors.push(reflector);
      void reflector.run(signal);
    }
    if (o.resyncPeriodMs) this.#scheduleResync(o.resyncPeriodMs, signal);
  }

  /** The last list or watch error of a scope that has not synced yet, for a start-up that times out. */
  lastSyncError(): unknown {
    return this.#reflectors.find((r) => r.lastError !== undefined)?.lastError;
  }

  get started(): boolean {
    return this.#started;
  }

  /** Notes a write of the client (read-your-writes). */
  noteWrite(answer: KubernetesObject, deleted: boolean): void {
    this.#writes.note(keyString(objectKey(answer)), answer, deleted);
  }

  /** Resolves true once the noted writes to `key` (all of them, or those in `namespace`, when `key` is undefined) are in the store. */
  waitForWrites(
    key: string | undefined,
    namespace: string | undefined,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    const settled = (): boolean =>
      key === undefined
        ? this.#writes.settleAll(this.#view, namespace)
        : this.#writes.settle(key, this.#view);
    if (settled()) return Promise.resolve(true);
    const timeout = AbortSignal.timeout(timeoutMs);
    return this.#until(settled, signal ? AbortSignal.any([signal, timeout]) : timeout);
  }

  #sink(scope: string): ReflectorSink {
    return {
      replace: (items, resourceVersion) => {
        this.#replace(scope, items);
        this.#listed.add(scope);
        this.#advance(scope, resourceVersion, true);
      },
      change: (type, obj) => this.#change(type, obj),
      progress: (resourceVersion) => this.#advance(scope, resourceVersion, false),
    };
  }

  #replace(scope: string, items: KubernetesObject[]): void {
    const initial = !this.#listed.has(scope);
    const seen = new Set<string>();
    for (const raw of items) {
      const key = keyString(objectKey(raw));
      // Seen even when skipped: a version the cache already holds stays (see #put).
      seen.add(key);
      const put = this.#put(key, raw);
      if (!put) continue;
      const { old, obj } = put;
      if (!old) this.#emit('onAdd', (h) => h.onAdd?.(obj, initial));
      else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion)
        this.#emit('onUpdate', (h) => h.onUpdate?.(old, obj));
    }
    for (const key of [...this.#store.keys()]) {
      if (seen.has(key) || this.#scopeOf(key) !== scope) continue;
      const gone = this.#store.delete(key);
      if (gone) this.#emit('onDelete', (h) => h.onDelete?.(gone, true));
    }
  }

  #change(type: 'ADDED' | 'MODIFIED' | 'DELETED', raw: KubernetesObject): void {
    const key = keyString(objectKey(raw));
    if (type === 'DELETED') {
      const last = this.#store.delete(key);
      // An object the cache never held was never announced: no delete either, as client-go.
      if (!last) return;
      const obj = this.#tryPrepare(raw) ?? last;
      this.#emit('onDelete', (h) => h.onDelete?.(obj, false));
      return;
    }
    const put = this.#put(key, raw);
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

  /**
   * Stores `raw`, transformed, under `key`. When the transform or an index function throws, the
   * object is skipped: logged, counted, and the store left as it was, so the informer goes on
   * with the other objects and the next events. A version already stored stays, stale rather
   * than dropped: dropping it would tell handlers and readers that an existing object is gone
   * (a reconciler may act on that), while a stale version is a state the object really had,
   * which the next good version replaces. client-go likewise logs a failed store update and
   * drops the event.
   */
  #put(key: string, raw: KubernetesObject): { old: T | undefined; obj: T } | undefined {
    const obj = this.#tryPrepare(raw);
    if (!obj) return undefined;
    try {
      return { old: this.#store.set(key, obj), obj };
    } catch (err) {
      reportSkippedObject(this.#options.logger, this.kind, raw, 'index', err);
      return undefined;
    }
  }

  /** The transformed, frozen object, or undefined (skipped and reported) when the transform throws. */
  #tryPrepare(raw: KubernetesObject): T | undefined {
    try {
      const transformed = this.#options.transform ? this.#options.transform(raw) : raw;
      if (typeof transformed !== 'object' || transformed === null)
        throw new TypeError(`the transform returned ${transformed === null ? 'null' : typeof transformed}`);
      return deepFreeze(transformed as T);
    } catch (err) {
      reportSkippedObject(this.#options.logger, this.kind, raw, 'transform', err);
      return undefined;
    }
  }

  #scopeOf(key: string): string {
    if (this.#scopes.length === 1) return this.#scopes[0] ?? '';
    return key.slice(0, key.indexOf('/'));
  }

  #emit(event: keyof EventHandler<T>, call: (h: EventHandler<T>) => void): void {
    for (const handler of this.#handlers) this.#call(event, () => call(handler));
  }

  /** A failing handler is logged, and neither stops the informer nor the other handlers. */
  #call(event: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.#options.logger.error('event handler failed', { kind: this.kind.kind, event, err });
    }
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
