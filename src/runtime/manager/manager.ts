import type { V1Lease } from '@kubernetes/client-node';
import type { KubeObject } from '../api/kube-object.ts';
import type { Json } from '../api/json.ts';
import { newCache, type Cache } from '../cache/cache.ts';
import { SharedInformer } from '../cache/informer.ts';
import { newClient, type Client } from '../client/client.ts';
import type { Kind } from '../client/kind.ts';
import { LeaseKind } from '../client/kinds.ts';
import { clockTimeout } from '../clock/clock-timeout.ts';
import { transportFor, type Transport } from '../client/transport.ts';
import type { RestConfig } from '../config/rest-config.ts';
import { ControllerBuilder } from '../builder/controller-builder.ts';
import { Controller } from '../controller/controller.ts';
import type { ControllerOptions } from '../controller/controller-options.ts';
import type { HealthChecker } from '../health/health-checker.ts';
import { ping } from '../health/health-checker.ts';
import { HealthProbes } from '../health/health-probes.ts';
import { LeaderElectionLostError } from '../leader/leader-election-lost-error.ts';
import { LeaderElector } from '../leader/leader-elector.ts';
import { leaseLock, leaseRecordOf } from '../leader/lease-lock.ts';
import { defaultLeaderIdentity } from '../leader/identity.ts';
import type { LeaderElectionOptions } from '../leader/leader-election-options.ts';
import type { Logger } from '../log/logger.ts';
import {
  installLocalConversions,
  restoreLocalConversions,
  type LocalConversion,
} from '../webhook/install-local-conversions.ts';
import { installLocalWebhooks } from '../webhook/install-local-webhooks.ts';
import { ApiEventRecorder } from '../events/api-event-recorder.ts';
import type { EventRecorder } from '../events/event-recorder.ts';
import { startMetricsServer, type MetricsServerOptions } from '../metrics/metrics-server.ts';
import type { RunningServer } from '../server/http-server.ts';
import type { WebhookServer } from '../webhook/webhook-server.ts';
import {
  parseBindAddress,
  resolveManagerOptions,
  type ManagerOptions,
  type ResolvedManagerOptions,
} from './manager-options.ts';
import { CacheSyncTimeoutError } from './cache-sync-timeout-error.ts';
import { ControllerGroup } from './controller-group.ts';
import { checkPermissions, type Permission } from './permission-check.ts';
import { ApiServerUnreachableError } from './api-server-unreachable-error.ts';
import { Backoff } from '../cache/backoff.ts';
import { isApiServerUnreachable } from '../client/api-server-unreachable.ts';
import { shutdownSignal } from './shutdown-signal.ts';
import { ShardedReconciler } from '../sharding/sharded-reconciler.ts';
import { RangeMember } from '../sharding/range-member.ts';
import { RangeReconciler } from '../sharding/range-reconciler.ts';
import { Sharder } from '../sharding/sharder.ts';
import { ringLeaseInformer } from '../sharding/sharder-cache.ts';
import { LiveShards } from '../sharding/live-shards.ts';
import { shardAssignmentHandler, shardAssignmentPath } from '../sharding/shard-assignment-webhook.ts';
import {
  HOLDER_PROCESS_ANNOTATION,
  HOLDER_RENEW_TIME_ANNOTATION,
  RING_LABEL,
  SHARDER_IDENTITY,
  shardLabel,
} from '../sharding/shard-labels.ts';
import { shardingMetrics } from '../sharding/sharding-metrics.ts';
import type { RingKind } from '../sharding/ring-kind.ts';
import type { ExpiredProcess } from '../sharding/ring-membership.ts';
import { controllerOf } from '../sharding/ring-key.ts';
import { currentShardedReconcile } from '../sharding/sharded-reconcile-scope.ts';
import type { ShardedKinds } from '../builder/controller-builder.ts';

/** What reviewing metrics callers takes: Kubebuilder's metrics-auth role. */
const METRICS_AUTH_PERMISSIONS: readonly Permission[] = [
  { group: 'authentication.k8s.io', resource: 'tokenreviews', verb: 'create' },
  { group: 'authorization.k8s.io', resource: 'subjectaccessreviews', verb: 'create' },
];

/** Where a manager is in its life: controllers added in `running` start at once. */
type ManagerState = 'new' | 'starting' | 'running' | 'stopped';

/** How long a stopping manager may take to put back the CRDs `webhookInstallLocal` pointed at it. */
const LOCAL_CONVERSIONS_RESTORE_MS = 5_000;

/**
 * Runs controllers, as controller-runtime's manager: it owns the client and the shared cache,
 * serves /metrics, /healthz and /readyz, checks its permissions, starts the caches, waits for them,
 * then starts the controllers (while it holds the leader lease, when leader election is on), and on
 * SIGTERM lets in-flight reconciles finish before it releases the lease and returns.
 *
 * @example
 * ```ts
 * const mgr = await Manager.create({ leaderElection: true, leaderElectionId: 'webapp-operator' });
 * mgr.controller().for(WebAppKind).owns(DeploymentKind).complete(new WebAppReconciler(mgr.client));
 * await mgr.start();
 * ```
 */
export class Manager {
  readonly client: Client;
  readonly cache: Cache;
  readonly logger: Logger;
  readonly #options: ResolvedManagerOptions;
  readonly #probes = new HealthProbes();
  readonly #controllers: Controller[] = [];
  /** The `.sharded()` controllers: they run on every replica, while it holds its shard Lease. */
  readonly #shardedControllers: Controller[] = [];
  /** What the ring shards: each sharded controller's `for` kind and the kinds it owns. */
  readonly #ringKinds: RingKind[] = [];
  /** The sharded kinds whose cached objects `sharding_shard_objects` counts. */
  readonly #countedKinds = new Set<Kind>();
  /** Kinds cached as this shard's share only, and kinds a controller watches whole: never both. */
  readonly #sharedKinds = new Set<Kind>();
  readonly #wholeKinds = new Set<Kind>();
  /** With `selection: 'server'`: this shard's hash ranges, and the kinds cached by them. */
  readonly #rangeMember: RangeMember | undefined;
  readonly #rangeKinds: Kind[] = [];
  /** With `assignmentWebhook`: the ring as this replica sees it, for the webhook to assign by. */
  readonly #liveShards: LiveShards | undefined;
  /** The ring's Leases for the sharder, watched with the other caches so that a new leader's sharder runs warm. */
  #sharderLeases: SharedInformer<Json<V1Lease>> | undefined;
  readonly #names = new Set<string>();
  readonly #watchedKinds = new Map<string, Kind>();
  readonly #recorders = new Map<string, ApiEventRecorder>();
  #cachesSynced = false;
  #state: ManagerState = 'new';
  /** Waiting for the lease with `warmup` off. */
  #coldStandby = false;
  /** The lease was lost: stop without waiting for anything. */
  #leaseLost = false;
  /** The group running the controllers, while they run. */
  #group: ControllerGroup | undefined;
  /** The group running the sharded controllers, while this replica holds its shard Lease. */
  #shardGroup: ControllerGroup | undefined;
  /** Whose drain ended at the timeout: that Lease is left to expire, not released. */
  readonly #undrained = new Set<'leader' | 'shard'>();
  /** This process's identity in the leader Lease and on its shard Lease: host name and a random id. */
  readonly #processIdentity = defaultLeaderIdentity();
  /** The one connection pool of the client, the cache, the permission check and /metrics auth. */
  readonly #transport: Transport;
  #metricsServer: RunningServer | undefined;
  #probeServer: RunningServer | undefined;
  /** The CRDs `webhookInstallLocal` pointed at this process, put back when it stops. */
  #localConversions: LocalConversion[] = [];

  private constructor(options: ResolvedManagerOptions) {
    this.#options = options;
    this.logger = options.logger;
    const namespaces = options.namespace ? [options.namespace] : undefined;
    // One connection pool for the client and the cache, every request bounded by requestTimeout.
    const transport = transportFor(options.kubeConfig, {
      requestTimeoutMs: options.requestTimeout,
      http2: options.http2,
      clock: options.clock,
    });
    this.#transport = transport;
    this.cache = newCache({
      transport,
      logger: options.logger.child({ component: 'cache' }),
      ...(namespaces ? { namespaces } : {}),
    });
    this.client = newClient({
      transport,
      cache: this.cache,
      fieldManager: options.fieldManager,
      ...(options.sharding?.selection === 'labels'
        ? { writeLabels: (obj: KubeObject) => this.#shardLabelsFor(obj) }
        : {}),
    });
    this.#rangeMember = this.#newRangeMember();
    this.#liveShards = this.#serveShardAssignment();
    this.#probes.addHealthzCheck('ping', ping);
    this.#probes.addReadyzCheck('informers', () => {
      // A cold standby has nothing to sync until it leads, and is ready to take over.
      if (!this.#cachesSynced && !this.#coldStandby) throw new Error('caches have not synced yet');
    });
  }

  /** Creates a manager; nothing runs until `start`. */
  static async create(options: ManagerOptions = {}): Promise<Manager> {
    return new Manager(resolveManagerOptions(options));
  }

  /** The RestConfig the manager talks to the API server with. */
  get kubeConfig(): RestConfig {
    return this.#options.kubeConfig;
  }

  /** `https://host:port` (`http://` when not `metricsSecure`) of /metrics once started, when it is on. */
  get metricsUrl(): string | undefined {
    return this.#metricsServer?.url;
  }

  /** `http://host:port` of /healthz and /readyz once started, when they are on. */
  get healthProbeUrl(): string | undefined {
    return this.#probeServer?.url;
  }

  /**
   * The webhook server: register defaulters, validators and conversions on it before `start`,
   * which serves them when any is registered.
   */
  get webhookServer(): WebhookServer {
    return this.#options.webhookServer;
  }

  /**
   * The manager's event recorder (events.k8s.io/v1), reporting as the field manager's name. Using
   * it adds `create` and `patch` on events to the permissions checked at start-up.
   */
  get events(): EventRecorder {
    return this.eventRecorderFor(this.#options.fieldManager);
  }

  /** An event recorder reporting as `reportingController`, one per name. */
  eventRecorderFor(reportingController: string): EventRecorder {
    let recorder = this.#recorders.get(reportingController);
    if (!recorder) {
      recorder = new ApiEventRecorder({
        client: this.client,
        reportingController,
        clock: this.#options.clock,
        logger: this.logger.child({ component: 'events' }),
      });
      this.#recorders.set(reportingController, recorder);
    }
    return recorder;
  }

  /** Starts declaring a controller; pass a kind as a shorthand for `.for(kind)`. */
  controller(nameOrKind?: string | Kind): ControllerBuilder {
    if (typeof nameOrKind === 'object') return new ControllerBuilder(this.#builderHost()).for(nameOrKind);
    return new ControllerBuilder(this.#builderHost(), nameOrKind);
  }

  addHealthzCheck(name: string, check: HealthChecker): void {
    this.#probes.addHealthzCheck(name, check);
  }

  addReadyzCheck(name: string, check: HealthChecker): void {
    this.#probes.addReadyzCheck(name, check);
  }

  /**
   * Runs until `signal` aborts (default: SIGTERM or SIGINT), then lets in-flight reconciles finish
   * within `gracefulShutdownTimeout` before it releases the lease and returns. Rejects when
   * start-up fails (missing permissions, caches that do not sync within `cacheSyncTimeout`), when a
   * controller fails, when the drain outlives the timeout, and with LeaderElectionLostError when
   * the lease is lost. A manager starts once.
   */
  async start(signal?: AbortSignal): Promise<void> {
    if (this.#state !== 'new') throw new Error('this manager was already started: a manager starts once');
    this.#state = 'starting';
    const shutdown =
      signal ?? (this.#options.handleSignals ? shutdownSignal(this.logger) : new AbortController().signal);
    const caches = new AbortController();
    this.#liveShards?.start(caches.signal);
    this.#sharderLeases = this.#newSharderLeases();
    this.#sharderLeases?.start(caches.signal);
    const servers: RunningServer[] = [];
    try {
      await this.#startServers(servers);
      // One budget for reaching the API server and syncing the caches.
      const deadline = this.#options.clock.monotonic() + this.#options.cacheSyncTimeout;
      if (this.#options.checkPermissions && !(await this.#checkPermissions(deadline, shutdown))) return;
      const { leaderElection, warmup, sharding } = this.#options;
      // A shard needs its share cached whether it leads or not: sharding syncs every cache first.
      if (!leaderElection || warmup || sharding) {
        if (!(await this.#syncCaches(caches.signal, shutdown, deadline))) return;
      } else {
        this.cache.open(caches.signal);
      }
      if (sharding) await this.#runSharded(shutdown, caches.signal);
      else
        await (leaderElection ? this.#runAsLeader(shutdown, caches.signal) : this.#runControllers(shutdown));
    } finally {
      this.#state = 'stopped';
      await this.#cleanUp(servers, caches);
    }
  }

  /**
   * Writes the events the last reconciles recorded and closes the servers, within the
   * graceful-shutdown timeout, or not waiting at all once the lease is lost: a stuck API server or
   * webhook caller must not delay the exit (controller-runtime stops its recorders with the
   * shutdown context).
   */
  async #cleanUp(servers: readonly RunningServer[], caches: AbortController): Promise<void> {
    const budget = this.#leaseLost ? 0 : this.#options.gracefulShutdownTimeout;
    const deadline = this.#options.clock.monotonic() + budget;
    const within = async (work: Promise<unknown>, atLeast = 0): Promise<void> => {
      const left = Math.max(atLeast, deadline - this.#options.clock.monotonic());
      const timer = new AbortController();
      await Promise.race([work.catch(() => undefined), this.#options.clock.sleep(left, timer.signal)]);
      timer.abort();
    };
    await within(Promise.all([...this.#recorders.values()].map((r) => r.flush())));
    caches.abort();
    // While the webhook server still answers: the CRDs convert through it until they are put back.
    // A budget of its own, also once the lease is lost: left pointing here, a CRD converts through
    // a dead process and refuses `npm run install-crds`.
    await within(this.#restoreLocalConversions(), LOCAL_CONVERSIONS_RESTORE_MS);
    await within(Promise.all(servers.map((s) => s.close())));
    this.logger.info('manager stopped');
  }

  /**
   * Checks the manager's permissions, waiting for an API server that cannot be reached yet (a
   * node up before its control plane) until `deadline`, as the caches' lists would: under
   * CrashLoopBackOff, exiting at once keeps a replica down for minutes after the server is back.
   * Each attempt is cut at `deadline`: a server that takes connections and never answers would
   * otherwise hold one for the whole request timeout. False when `shutdown` came first.
   */
  async #checkPermissions(deadline: number, shutdown: AbortSignal): Promise<boolean> {
    const { clock, cacheSyncTimeout } = this.#options;
    const backoff = new Backoff({ clock });
    for (;;) {
      const cut = clockTimeout(clock, Math.max(0, deadline - clock.monotonic()));
      try {
        await checkPermissions(
          this.#transport,
          this.#requiredPermissions(),
          AbortSignal.any([shutdown, cut.signal]),
        );
        return true;
      } catch (err) {
        if (shutdown.aborted) return false;
        if (cut.signal.aborted)
          throw new ApiServerUnreachableError(
            cacheSyncTimeout,
            new Error('the permission check (a SelfSubjectAccessReview) got no answer'),
          );
        const left = deadline - clock.monotonic();
        if (!isApiServerUnreachable(err)) throw err;
        if (left <= 0) throw new ApiServerUnreachableError(cacheSyncTimeout, err);
        this.logger.info('waiting for the API server', { err });
        await clock.sleep(Math.min(backoff.next(), left), shutdown);
        if (shutdown.aborted) return false;
      } finally {
        cut.clear();
      }
    }
  }

  /**
   * Starts the cache and waits for every informer to sync, until `deadline` (default:
   * `cacheSyncTimeout` from now). False when `shutdown` came first; a CacheSyncTimeoutError names
   * each kind that did not sync and its last error (a missing CRD, a forbidden list, a failing
   * conversion webhook).
   */
  async #syncCaches(
    caches: AbortSignal,
    shutdown: AbortSignal,
    deadline = this.#options.clock.monotonic() + this.#options.cacheSyncTimeout,
  ): Promise<boolean> {
    this.cache.start(caches);
    const { clock } = this.#options;
    const timeout = clockTimeout(clock, Math.max(0, deadline - clock.monotonic()));
    const synced = await this.cache.waitForCacheSync(AbortSignal.any([shutdown, timeout.signal]));
    const timedOut = timeout.signal.aborted;
    timeout.clear();
    if (synced) {
      this.#cachesSynced = true;
      this.logger.info('caches synced', { kinds: [...this.#watchedKinds.keys()] });
      return true;
    }
    if (shutdown.aborted && !timedOut) return false;
    throw new CacheSyncTimeoutError(this.#options.cacheSyncTimeout, this.cache.unsynced());
  }

  #builderHost(): ConstructorParameters<typeof ControllerBuilder>[0] {
    return {
      shardedByDefault: this.#options.sharding?.controllers === 'all',
      informerFor: <T extends KubeObject>(kind: Kind<T>, sharded = false): SharedInformer<Json<T>> => {
        this.#watchedKinds.set(`${kind.apiVersion}/${kind.kind}`, kind);
        if (sharded) this.#cacheShardOf(kind);
        else this.#watchWhole(kind);
        return this.cache.informerFor(kind);
      },
      addController: (options, sharded) => this.#addController(options, sharded),
    };
  }

  #newRangeMember(): RangeMember | undefined {
    const sharding = this.#options.sharding;
    if (sharding?.selection !== 'server') return undefined;
    return new RangeMember({
      ring: sharding.ring,
      shard: sharding.shardName,
      leaseNamespace: this.#options.leaderElectionNamespace,
      key: sharding.key,
      kinds: this.#rangeKinds,
      cache: this.cache,
      client: this.client,
      transport: this.#transport,
      retryPeriod: this.#options.retryPeriod,
      clock: this.#options.clock,
      logger: this.logger.child({ component: 'shard-ranges' }),
      metrics: shardingMetrics(this.#options.registry),
    });
  }

  /** Registers the ring's shard-assignment webhook, and returns the Lease view it assigns by. */
  #serveShardAssignment(): LiveShards | undefined {
    const sharding = this.#options.sharding;
    if (sharding?.selection !== 'labels' || !sharding.assignmentWebhook) return undefined;
    const shards = new LiveShards({
      ring: sharding.ring,
      leaseNamespace: this.#options.leaderElectionNamespace,
      transport: this.#transport,
      clock: this.#options.clock,
      logger: this.logger,
    });
    this.webhookServer.register(
      shardAssignmentPath(sharding.ring),
      shardAssignmentHandler({
        ring: sharding.ring,
        kinds: () => this.#ringKinds,
        shards: () => shards.ring(),
      }),
    );
    return shards;
  }

  /**
   * Caches only this shard's objects of `kind` (by label, or by hash range on the server; an owned
   * kind hashed by uid stays whole, for its uid is not its owner's), and reports how many it holds.
   */
  #cacheShardOf(kind: Kind): void {
    const { ring, shardName, key } = this.#requireSharding(`the controller watching ${kind.kind}`);
    const member = this.#rangeMember;
    const isRingKind = this.#ringKinds.some((k) => k.kind === kind);
    if (!member || isRingKind || key === 'namespace') this.#shareOnly(kind);
    if (!member) this.cache.selectFor(kind, `${shardLabel(ring)}=${shardName}`);
    else if (isRingKind || key === 'namespace') {
      if (!this.#rangeKinds.includes(kind)) this.#rangeKinds.push(kind);
      this.cache.shardFor(kind, member.selection());
    }
    if (this.#countedKinds.has(kind)) return;
    this.#countedKinds.add(kind);
    const metrics = shardingMetrics(this.#options.registry);
    const labels = { ring, shard: shardName, kind: kind.kind };
    metrics.objectCounters.add(() => {
      const informer = this.cache.informerFor(kind);
      metrics.shardObjects.set(labels, informer.store.size);
      if (member) metrics.serverSelection.set({ ring, kind: kind.kind }, informer.serverSharded ? 1 : 0);
    });
  }

  /**
   * One informer per kind serves every controller: a controller that is not sharded (or a
   * `watches`) of a kind cached as the shard's share would silently see only that share.
   */
  #shareOnly(kind: Kind): void {
    if (this.#wholeKinds.has(kind)) throw shareAndWholeError(kind);
    this.#sharedKinds.add(kind);
  }

  #watchWhole(kind: Kind): void {
    if (this.#sharedKinds.has(kind)) throw shareAndWholeError(kind);
    this.#wholeKinds.add(kind);
  }

  #requireSharding(what: string): NonNullable<ResolvedManagerOptions['sharding']> {
    if (!this.#options.sharding) {
      throw new Error(
        `${what} is sharded(), but the manager has no sharding: pass sharding: { ring: '...' } to Manager.create`,
      );
    }
    return this.#options.sharding;
  }

  /**
   * The shard label for an object a sharded reconcile of this shard writes for the object it
   * reconciles, which controls it: it must land in this shard's cache at once, where that
   * reconcile looks for it. Writes of a leader-only controller, or for another owner, keep theirs.
   */
  #shardLabelsFor(obj: KubeObject): Record<string, string> | undefined {
    const sharding = this.#options.sharding;
    const scope = currentShardedReconcile();
    const owner = controllerOf(obj);
    if (!sharding || !scope || !owner) return undefined;
    if (scope.ring !== sharding.ring || scope.shard !== sharding.shardName) return undefined;
    const ownKind = scope.kind;
    const ownsIt =
      owner.apiVersion === ownKind.apiVersion &&
      owner.kind === ownKind.kind &&
      owner.name === scope.request.name &&
      // A cluster-scoped owner's request has no namespace; its children may have one.
      (!ownKind.namespaced || (obj.metadata?.namespace ?? '') === scope.request.namespace);
    const ringKind = this.#ringKinds.find((k) => k.kind === ownKind);
    if (!ownsIt || !ringKind?.controlled.some((k) => k.apiVersion === obj.apiVersion && k.kind === obj.kind))
      return undefined;
    return { [shardLabel(sharding.ring)]: sharding.shardName };
  }

  #addController(
    options: Omit<ControllerOptions, 'logger' | 'clock' | 'registry'>,
    sharded?: ShardedKinds,
  ): Controller {
    if (this.#state === 'stopped') {
      throw new Error(
        `controller ${options.name} was added after the manager stopped: add controllers before mgr.start()`,
      );
    }
    if (this.#names.has(options.name)) {
      throw new Error(
        `a controller named "${options.name}" already exists: give this one another name with .named('...')`,
      );
    }
    const twin = sharded && this.#ringKinds.find((k) => k.kind === sharded.forKind);
    if (twin) {
      // The drain relies on one workqueue serialising an object's reconciles: two would not.
      throw new Error(
        `controller ${options.name} shards ${sharded.forKind.kind}, which another sharded controller already does: a ring kind has one sharded controller, so reconcile both in one`,
      );
    }
    this.#names.add(options.name);
    const controller = new Controller({
      ...options,
      ...(sharded ? { reconciler: this.#shardedReconciler(options.reconciler, sharded) } : {}),
      logger: this.logger,
      clock: this.#options.clock,
      registry: this.#options.registry,
    });
    if (sharded) {
      this.#ringKinds.push({ kind: sharded.forKind, controlled: sharded.owned });
      this.#shardedControllers.push(controller);
      this.#shardGroup?.add(controller);
      return controller;
    }
    this.#controllers.push(controller);
    // Added while the controllers run: start it now, as controller-runtime's runnable groups do.
    this.#group?.add(controller);
    return controller;
  }

  #shardedReconciler(
    reconciler: ControllerOptions['reconciler'],
    sharded: ShardedKinds,
  ): ControllerOptions['reconciler'] {
    const { ring, shardName } = this.#requireSharding(`the controller of ${sharded.forKind.kind}`);
    if (this.#rangeMember)
      return new RangeReconciler(reconciler, this.client, sharded.forKind, this.#rangeMember);
    return new ShardedReconciler({
      reconciler,
      client: this.client,
      kind: sharded.forKind,
      ring,
      shard: shardName,
      metrics: shardingMetrics(this.#options.registry),
    });
  }

  #requiredPermissions(): Permission[] {
    const namespace = this.#options.namespace;
    const watched = [...this.#watchedKinds.values()].flatMap((kind) =>
      ['list', 'watch'].map((verb) => ({
        group: kind.group,
        resource: kind.plural,
        verb,
        ...(kind.namespaced && namespace ? { namespace } : {}),
      })),
    );
    const metricsAuth = this.#servesSecureMetrics() ? METRICS_AUTH_PERMISSIONS : [];
    const events: Permission[] =
      this.#recorders.size > 0
        ? ['create', 'patch'].map((verb) => ({
            group: 'events.k8s.io',
            resource: 'events',
            verb,
            // Events go to the namespace of the object they are about: one watched namespace is enough.
            ...(namespace ? { namespace } : {}),
          }))
        : [];
    const localWebhooks = this.#options.webhookInstallLocal ? this.#localWebhookPermissions() : [];
    const sharding: Permission[] = this.#options.sharding
      ? [
          ...['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'].map((verb) => ({
            group: 'coordination.k8s.io',
            resource: 'leases',
            verb,
            namespace: this.#options.leaderElectionNamespace,
          })),
          ...(this.#rangeMember ? [] : this.#ringKinds)
            .flatMap((k) => [k.kind, ...k.controlled])
            .map((kind) => ({
              group: kind.group,
              resource: kind.plural,
              verb: 'patch',
              // The sharder writes the objects of the manager's namespace only.
              ...(kind.namespaced && namespace ? { namespace } : {}),
            })),
        ]
      : [];
    return [
      ...watched,
      ...metricsAuth,
      ...events,
      ...localWebhooks,
      ...sharding,
      ...this.#options.permissions,
    ];
  }

  /** What `webhookInstallLocal` writes: the webhook configurations, and the converted kinds' CRDs. */
  #localWebhookPermissions(): Permission[] {
    const server = this.webhookServer;
    const configurations = server.hasAdmissionHandlers
      ? ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations']
      : [];
    return [
      ...configurations.flatMap((resource) =>
        ['create', 'patch'].map((verb) => ({ group: 'admissionregistration.k8s.io', resource, verb })),
      ),
      ...(server.convertedKinds.length > 0
        ? ['get', 'patch'].map((verb) => ({
            group: 'apiextensions.k8s.io',
            resource: 'customresourcedefinitions',
            verb,
          }))
        : []),
    ];
  }

  #servesSecureMetrics(): boolean {
    return this.#options.metricsSecure && parseBindAddress(this.#options.metricsBindAddress) !== undefined;
  }

  #metricsServing(): MetricsServerOptions {
    const { registry, metricsSecure, enableHttp2, metricsCertPath, clock } = this.#options;
    const { metricsCertName, metricsCertKey } = this.#options;
    return {
      registry,
      secure: metricsSecure,
      enableHttp2,
      logger: this.logger.child({ component: 'metrics' }),
      auth: { transport: this.#transport, clock },
      ...(metricsCertPath
        ? { certPath: metricsCertPath, certName: metricsCertName, keyName: metricsCertKey }
        : {}),
    };
  }

  /**
   * Starts the servers, adding each to `started` as it listens: when a later step fails (a port in
   * use, `webhookInstallLocal` refused), the clean-up closes the ones already listening.
   */
  async #startServers(started: RunningServer[]): Promise<void> {
    const metrics = parseBindAddress(this.#options.metricsBindAddress);
    if (metrics) {
      this.#metricsServer = await startMetricsServer({ ...metrics, ...this.#metricsServing() });
      started.push(this.#metricsServer);
    }
    const probes = parseBindAddress(this.#options.healthProbeBindAddress);
    if (probes) {
      this.#probeServer = await this.#probes.listen(probes);
      started.push(this.#probeServer);
    }
    // Before the caches: a cache of a converted kind syncs only once /convert answers.
    if (this.webhookServer.hasHandlers) {
      started.push(await this.webhookServer.start());
      if (this.#options.webhookInstallLocal) await this.#installLocalWebhooks();
    }
    for (const server of started) this.logger.info('serving', { url: server.url });
  }

  /**
   * `webhookInstallLocal`: points the generated webhook configurations (when admission webhooks are
   * registered: a project with conversions only has no manifests file) and the CRDs of the
   * converted kinds at this process.
   */
  async #installLocalWebhooks(): Promise<void> {
    const server = this.webhookServer;
    const installed = server.hasAdmissionHandlers
      ? await installLocalWebhooks(this.client, server, this.#options.webhookInstallLocal)
      : [];
    this.#localConversions = await installLocalConversions(this.client, server, server.convertedKinds);
    this.logger.info('webhooks point at this process', {
      configurations: [
        ...installed.map((c) => `${c.kind ?? ''}/${c.metadata?.name ?? ''}`),
        ...this.#localConversions.map((c) => `CustomResourceDefinition/${c.crd}`),
      ],
    });
  }

  /** `webhookInstallLocal`: the CRDs get back the conversion they had before this process. */
  async #restoreLocalConversions(): Promise<void> {
    const conversions = this.#localConversions;
    this.#localConversions = [];
    await restoreLocalConversions(this.client, conversions).catch((err: unknown) =>
      this.logger.error('cannot put back the conversion of the CRDs', { err }),
    );
  }

  /** The lease timings, clock and logger both elections (leader and shard Lease) run with. */
  #electionTimings(
    component: string,
  ): Pick<LeaderElectionOptions, 'leaseDuration' | 'renewDeadline' | 'retryPeriod' | 'clock' | 'logger'> {
    const { leaseDuration, renewDeadline, retryPeriod, clock } = this.#options;
    return { leaseDuration, renewDeadline, retryPeriod, clock, logger: this.logger.child({ component }) };
  }

  /** `otherLost`: the shard Lease lost, which aborts this election's reconciles as its own loss does. */
  async #runAsLeader(shutdown: AbortSignal, caches: AbortSignal, otherLost?: AbortSignal): Promise<void> {
    const { kubeConfig, leaderElectionNamespace, leaderElectionId, warmup } = this.#options;
    const lease = `${leaderElectionNamespace}/${leaderElectionId}`;
    const elector = new LeaderElector({
      lock: leaseLock(kubeConfig, leaderElectionNamespace, leaderElectionId),
      // Per process, as without sharding: two processes given one shard name must not both lead.
      identity: this.#processIdentity,
      ...this.#electionTimings('leader-election'),
      callbacks: {
        onStartedLeading: async (leading, lost) => {
          this.#coldStandby = false;
          // A cold standby lists only once it leads; a warm one synced before it competed.
          if (!warmup && !this.#options.sharding && !(await this.#syncCaches(caches, leading))) return;
          const aborted = otherLost ? AbortSignal.any([lost, otherLost]) : lost;
          // Stopped with the controllers, failed or not, and waited for: the leader Lease is
          // released only once none of its writes is in flight.
          const sharderStop = new AbortController();
          const from = elector.tookOverFrom;
          const expired = from && { identity: from.holderIdentity, renewTime: from.renewTime };
          const sharding = this.#sharder(expired)?.run(AbortSignal.any([leading, sharderStop.signal]));
          try {
            await this.#runControllers(leading, aborted);
          } finally {
            sharderStop.abort();
            await sharding;
          }
        },
        mayRelease: () => !this.#undrained.has('leader'),
      },
    });
    this.#coldStandby = !warmup && !this.#options.sharding;
    this.logger.info('waiting for the leader lease', { lease, identity: elector.identity });
    const watching = new AbortController();
    if (this.#options.sharding) this.#watchLeaderLease(elector, watching.signal);
    const end = await elector.run(shutdown).finally(() => watching.abort());
    if (end === 'lost') {
      this.#leaseLost = true;
      throw new LeaderElectionLostError(lease);
    }
  }

  /**
   * Watches the leader Lease until `signal` aborts, so that `elector` takes it as soon as it is
   * released, or at its expiry timed from the holder's last renewal as it happened, rather than up
   * to a retry period later each: in a ring every shard's process is a candidate, and the objects
   * of a leader shard sent SIGTERM or killed wait for the next leader's sharder to move them.
   */
  #watchLeaderLease(elector: LeaderElector, signal: AbortSignal): void {
    const { leaderElectionNamespace, leaderElectionId, clock } = this.#options;
    const lease = new SharedInformer<Json<V1Lease>>({
      kind: LeaseKind,
      transport: this.#transport,
      namespaces: [leaderElectionNamespace],
      fieldSelector: `metadata.name=${leaderElectionId}`,
      clock,
      logger: this.logger.child({ component: 'leader-election' }),
    });
    const seen = (lease: Json<V1Lease>): void => {
      const record = leaseRecordOf(lease);
      if (record.holderIdentity === '') elector.retryNow();
      else elector.observeRenewal(record);
    };
    lease.addEventHandler({ onAdd: seen, onUpdate: (_old, lease) => seen(lease) });
    lease.start(signal);
  }

  /** The ring's Leases for its sharder, on every process that may lead; undefined without a sharder. */
  #newSharderLeases(): SharedInformer<Json<V1Lease>> | undefined {
    const sharding = this.#options.sharding;
    if (!sharding?.sharder) return undefined;
    return ringLeaseInformer({
      ring: sharding.ring,
      leaseNamespace: this.#options.leaderElectionNamespace,
      transport: this.#transport,
      logger: this.#sharderLogger(sharding.ring),
    });
  }

  #sharderLogger(ring: string): Logger {
    return this.logger.child({ component: 'sharder', ring });
  }

  /**
   * The sharder of the ring, for the leader to run; undefined without sharding. `expiredProcess`:
   * the process whose expired leader Lease this one took (see RingMembershipOptions).
   */
  #sharder(expiredProcess: ExpiredProcess | undefined): Sharder | undefined {
    const sharding = this.#options.sharding;
    if (!sharding?.sharder) return undefined;
    return new Sharder({
      ring: sharding.ring,
      // Split by the server, the ring needs of the sharder only its membership.
      kinds: this.#rangeMember ? [] : this.#ringKinds,
      leaseNamespace: this.#options.leaderElectionNamespace,
      namespace: this.#options.namespace,
      transport: this.#transport,
      logger: this.#sharderLogger(sharding.ring),
      ...(this.#sharderLeases ? { leases: this.#sharderLeases } : {}),
      client: this.client,
      retryPeriod: this.#options.retryPeriod,
      leaseDuration: this.#options.leaseDuration,
      resyncPeriod: sharding.resyncPeriod,
      concurrentMoves: sharding.concurrentMoves,
      clock: this.#options.clock,
      registry: this.#options.registry,
      ...(expiredProcess === undefined ? {} : { expiredProcess }),
    });
  }

  /**
   * Competes for the leader lease (the unsharded controllers and the sharder) and holds this
   * replica's shard Lease (the sharded controllers) at once: two elections on two Leases, so they
   * never fight. Either ending in failure stops the other; `start` returns once both have, or at
   * once when either Lease is lost: then the other's reconciles are aborted and not waited for, as
   * a lost leader's are, for another shard (or leader) may already be running them.
   */
  async #runSharded(shutdown: AbortSignal, caches: AbortSignal): Promise<void> {
    const stop = new AbortController();
    const lost = new AbortController();
    const stopping = AbortSignal.any([shutdown, stop.signal]);
    const runs = [
      this.#runAsLeader(stopping, caches, lost.signal),
      this.#runAsShard(stopping, lost.signal),
    ].map((run) =>
      run.catch((err: unknown) => {
        if (err instanceof LeaderElectionLostError) lost.abort(err);
        stop.abort(err);
        throw err;
      }),
    );
    const onLost = new Promise<never>((_, reject) =>
      lost.signal.addEventListener('abort', () => reject(lost.signal.reason as Error), { once: true }),
    );
    const ends = await Promise.race([Promise.allSettled(runs), onLost]);
    const failed = ends.find((end) => end.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * Holds this replica's shard Lease as a leader election of its own (the Lease named for the
   * shard, the shard its holder, labelled with the ring) and runs the sharded controllers while it
   * does. Stopping drains them, then releases the Lease, which the sharder reads as the shard gone:
   * it moves the shard's objects at once. A drain that outlived the graceful-shutdown timeout keeps
   * the Lease instead, to expire a lease duration after its last renewal: the reconciles that
   * ignored their signal may still run. A lost Lease aborts their reconciles at once.
   */
  async #runAsShard(stop: AbortSignal, otherLost: AbortSignal): Promise<void> {
    const { ring, shardName } = this.#requireSharding('a shard');
    const namespace = this.#options.leaderElectionNamespace;
    const lease = `${namespace}/${shardName}`;
    let holding = false;
    const elector = new LeaderElector({
      lock: leaseLock(this.client, namespace, shardName, {
        labels: { [RING_LABEL]: ring },
        sharedHolder: {
          holder: shardName,
          mark: HOLDER_PROCESS_ANNOTATION,
          renewTimeMark: HOLDER_RENEW_TIME_ANNOTATION,
        },
      }),
      identity: this.#processIdentity,
      ...this.#electionTimings('shard-lease'),
      callbacks: {
        onNewLeader: (holder) => {
          if (holder === this.#processIdentity || holder === SHARDER_IDENTITY) return;
          // The shard's name as holder: a writer without this runtime's mark, or one that renewed
          // the Lease keeping this process's mark (both update the Lease as they read it).
          const who =
            holder === shardName
              ? 'another process that does not mark it (another program, or an older version of this runtime)'
              : `another process (${holder})`;
          const does = holding
            ? 'stops running the shard, as after a lost Lease'
            : 'waits and runs nothing until that Lease is free';
          this.logger.warn(
            `shard ${shardName}'s Lease ${lease} is held by ${who}: two processes were given the shard name "${shardName}"; this one ${does}. Give each process its own shard name (--shard-name, SHARD_NAME, or sharding.shardName)`,
            { ring, shard: shardName, holder },
          );
        },
        onStartedLeading: async (running, lost) => {
          holding = true;
          const aborted = AbortSignal.any([lost, otherLost]);
          await Promise.all([
            this.#runControllers(running, aborted, 'shard'),
            this.#rangeMember?.run(running),
          ]);
        },
        mayRelease: () => !this.#undrained.has('shard'),
      },
    });
    this.logger.info('joining the ring', { ring, shard: shardName, lease });
    const end = await elector.run(stop);
    if (end === 'lost') {
      this.#leaseLost = true;
      throw new LeaderElectionLostError(lease);
    }
  }

  /**
   * Runs every controller of its kind (the leader's, or the shard's sharded ones), and those added
   * later, until `stop` aborts or one fails, then drains within the graceful-shutdown timeout.
   * `lost` aborting (the lease lost, even mid-drain) aborts the reconciles in flight at once, as
   * controller-runtime sets the graceful timeout to 0 then.
   */
  async #runControllers(
    stop: AbortSignal,
    lost?: AbortSignal,
    which: 'leader' | 'shard' = 'leader',
  ): Promise<void> {
    const group = new ControllerGroup({
      gracefulShutdownTimeout: this.#options.gracefulShutdownTimeout,
      clock: this.#options.clock,
      logger: this.logger,
    });
    const onLost = (): void => group.abortNow(lost?.reason);
    if (lost?.aborted) onLost();
    else lost?.addEventListener('abort', onLost, { once: true });
    if (which === 'shard') this.#shardGroup = group;
    else this.#group = group;
    this.#state = 'running';
    try {
      for (const controller of which === 'shard' ? this.#shardedControllers : this.#controllers)
        group.add(controller);
      // A manager without controllers (webhooks only, say) still serves until it is stopped.
      await group.run(stop);
    } finally {
      lost?.removeEventListener('abort', onLost);
      if (group.undrained) this.#undrained.add(which);
      this.#state = 'stopped';
      if (which === 'shard') this.#shardGroup = undefined;
      else this.#group = undefined;
    }
  }
}

function shareAndWholeError(kind: Kind): Error {
  return new Error(
    `${kind.kind} is cached as this shard's share (the for or owns kind of a sharded controller), and another controller, not sharded or through watches(), needs all of them: shard that controller too, or read ${kind.kind} with client.direct()`,
  );
}
