import type { KubeObject } from '../api/kube-object.ts';
import type { Json } from '../api/json.ts';
import type { SharedInformer } from '../cache/informer.ts';
import type { Kind } from '../client/kind.ts';
import type { Controller } from '../controller/controller.ts';
import type { ControllerOptions } from '../controller/controller-options.ts';
import { enqueueForObject } from '../handler/enqueue-for-object.ts';
import { enqueueForOwner } from '../handler/enqueue-for-owner.ts';
import type { Handler } from '../handler/handler.ts';
import type { Predicate } from '../predicate/predicate.ts';
import type { Reconciler } from '../reconcile/reconciler.ts';

/** Options of one watch of a builder; `T` is the objects as the cache holds them (`Json<...>`). */
export interface WatchOptions<T> {
  /** All must pass for an event to reach the handler. Default: none. */
  predicates?: readonly Predicate<T>[];
}

/** Options of `owns`. */
export interface OwnsOptions<T> extends WatchOptions<T> {
  /** Only owner references with `controller: true` count. Default: true. */
  onlyController?: boolean;
}

/** Tuning of the built controller; see {@link ControllerOptions} for each default. */
export type BuilderControllerOptions = Pick<
  ControllerOptions,
  'maxConcurrentReconciles' | 'rateLimiter' | 'recoverPanic' | 'cacheSyncTimeoutMs'
>;

/** A sharded controller's kinds: its `for` kind and those it owns, cached as this shard's share. */
export interface ShardedKinds {
  readonly forKind: Kind;
  readonly owned: readonly Kind[];
}

/** What the builder needs of its manager. */
export interface BuilderHost {
  /** Whether a controller is sharded unless it says otherwise (`sharding.controllers: 'all'`). */
  readonly shardedByDefault?: boolean;
  /** The kind's shared informer, created on first use; a sharded one holds only this shard's objects. */
  informerFor<T extends KubeObject>(kind: Kind<T>, sharded?: boolean): SharedInformer<Json<T>>;
  /**
   * Creates the controller with the manager's logger, clock and registry, and runs it with the
   * manager: on every replica, reconciling its shard's objects, when `sharded` is given.
   */
  addController(
    options: Omit<ControllerOptions, 'logger' | 'clock' | 'registry'>,
    sharded?: ShardedKinds,
  ): Controller;
}

interface PendingWatch {
  readonly kind: Kind;
  /** `for` and `owns` watches: of the ring's objects, when the controller is sharded. */
  readonly ringObjects: boolean;
  readonly handler: Handler;
  readonly predicates: readonly Predicate<Json<KubeObject>>[];
}

/**
 * Declares a controller, as controller-runtime's builder: the kind it reconciles (`for`), the
 * kinds it creates (`owns`), other kinds it reacts to (`watches`), then `complete(reconciler)`.
 * It is sugar: every watch goes to the kind's shared informer, however many controllers use it.
 *
 * @example
 * ```ts
 * mgr.controller().for(WebAppKind).owns(DeploymentKind).owns(ServiceKind)
 *   .withOptions({ maxConcurrentReconciles: 4 }).complete(new WebAppReconciler(mgr.client));
 * ```
 */
export class ControllerBuilder {
  readonly #host: BuilderHost;
  #name: string | undefined;
  #forKind: Kind | undefined;
  readonly #watches: PendingWatch[] = [];
  readonly #eventFilters: Predicate<Json<KubeObject>>[] = [];
  #options: BuilderControllerOptions = {};
  #sharded = false;

  constructor(host: BuilderHost, name?: string) {
    this.#host = host;
    this.#name = name;
    this.#sharded = host.shardedByDefault ?? false;
  }

  /**
   * The kind this controller reconciles; its events request a reconcile of the object itself.
   * Predicates see the objects as the cache holds them, `Json<T>`.
   */
  for<T extends KubeObject>(kind: Kind<T>, options: WatchOptions<Json<T>> = {}): this {
    if (this.#forKind)
      throw new Error(
        `for(${kind.kind}): this controller already reconciles ${this.#forKind.kind}; a controller has one for() kind`,
      );
    this.#forKind = kind;
    return this.#watch(kind, enqueueForObject<Json<T>>(), options.predicates, true);
  }

  /** A kind this controller creates and owns: its events request a reconcile of the owner. */
  owns<T extends KubeObject>(kind: Kind<T>, options: OwnsOptions<Json<T>> = {}): this {
    const owner = this.#requireFor('owns');
    const handler = enqueueForOwner<Json<T>>(
      owner,
      options.onlyController === undefined ? {} : { onlyController: options.onlyController },
    );
    return this.#watch(kind, handler, options.predicates, true);
  }

  /** Any other kind, with a handler that says which requests its events cause, from `Json<T>` objects. */
  watches<T extends KubeObject>(
    kind: Kind<T>,
    handler: Handler<Json<T>>,
    options: WatchOptions<Json<T>> = {},
  ): this {
    return this.#watch(kind, handler, options.predicates);
  }

  /** A predicate applied to the events of every watch of this controller; its objects are JSON, as read. */
  withEventFilter(predicate: Predicate<Json<KubeObject>>): this {
    this.#eventFilters.push(predicate);
    return this;
  }

  withOptions(options: BuilderControllerOptions): this {
    this.#options = { ...this.#options, ...options };
    return this;
  }

  /**
   * Runs this controller on every replica, each reconciling only its shard's objects: the manager
   * must have `sharding` on. Its `for` and `owns` kinds are cached as this shard's share only;
   * `watches` kinds whole. `sharded(false)` runs it on the leader only, where the manager shards
   * every controller.
   */
  sharded(on = true): this {
    this.#sharded = on;
    return this;
  }

  /** Names the controller. Default: the `for` kind in lower case. */
  named(name: string): this {
    this.#name = name;
    return this;
  }

  /** Builds the controller; the manager starts it with the others. */
  complete(reconciler: Reconciler): Controller {
    const forKind = this.#requireFor('complete');
    const owned = this.#watches.filter((w) => w.ringObjects && w.kind !== forKind).map((w) => w.kind);
    const controller = this.#host.addController(
      { ...this.#options, name: this.#name ?? forKind.kind.toLowerCase(), reconciler, forKind },
      this.#sharded ? { forKind, owned } : undefined,
    );
    for (const watch of this.#watches) {
      const informer = this.#host.informerFor(watch.kind, this.#sharded && watch.ringObjects);
      controller.watch(informer, watch.handler, [...this.#eventFilters, ...watch.predicates]);
    }
    return controller;
  }

  #watch<T extends KubeObject>(
    kind: Kind<T>,
    handler: Handler<Json<T>>,
    predicates: readonly Predicate<Json<T>>[] = [],
    ringObjects = false,
  ): this {
    // Stored type-erased: each handler and predicate only ever sees events of its own kind.
    this.#watches.push({
      kind,
      ringObjects,
      handler: handler as Handler,
      predicates: predicates as readonly Predicate<Json<KubeObject>>[],
    });
    return this;
  }

  #requireFor(method: string): Kind {
    if (!this.#forKind)
      throw new Error(`${method}(): call for(kind) first, to say which kind this controller reconciles`);
    return this.#forKind;
  }
}
