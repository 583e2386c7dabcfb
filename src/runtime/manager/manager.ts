import type { KubernetesObject } from '@kubernetes/client-node';
import { newCache, type Cache } from '../cache/cache.ts';
import type { SharedInformer } from '../cache/informer.ts';
import { newClient, type Client } from '../client/client.ts';
import type { Kind } from '../client/kind.ts';
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
import { leaseLock } from '../leader/lease-lock.ts';
import type { Logger } from '../log/logger.ts';
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
import { shutdownSignal } from './shutdown-signal.ts';

/** What reviewing metrics callers takes: Kubebuilder's metrics-auth role. */
const METRICS_AUTH_PERMISSIONS: readonly Permission[] = [
  { group: 'authentication.k8s.io', resource: 'tokenreviews', verb: 'create' },
  { group: 'authorization.k8s.io', resource: 'subjectaccessreviews', verb: 'create' },
];

/** Where a manager is in its life: controllers added in `running` start at once. */
type ManagerState = 'new' | 'starting' | 'running' | 'stopped';

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
  /** The one connection pool of the client, the cache, the permission check and /metrics auth. */
  readonly #transport: Transport;
  #metricsServer: RunningServer | undefined;
  #probeServer: RunningServer | undefined;

  private constructor(options: ResolvedManagerOptions) {
    this.#options = options;
    this.logger = options.logger;
    const namespaces = options.namespace ? [options.namespace] : undefined;
    // One connection pool for the client and the cache, every request bounded by requestTimeout.
    const transport = transportFor(options.kubeConfig, {
      requestTimeoutMs: options.requestTimeout,
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
    });
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
    let servers: RunningServer[] = [];
    try {
      servers = await this.#startServers();
      if (this.#options.checkPermissions)
        await checkPermissions(this.#transport, this.#requiredPermissions());
      const { leaderElection, warmup } = this.#options;
      if (!leaderElection || warmup) {
        if (!(await this.#syncCaches(caches.signal, shutdown))) return;
      } else {
        this.cache.open(caches.signal);
      }
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
    const within = async (work: Promise<unknown>): Promise<void> => {
      const left = Math.max(0, deadline - this.#options.clock.monotonic());
      const timer = new AbortController();
      await Promise.race([work.catch(() => undefined), this.#options.clock.sleep(left, timer.signal)]);
      timer.abort();
    };
    await within(Promise.all([...this.#recorders.values()].map((r) => r.flush())));
    caches.abort();
    await within(Promise.all(servers.map((s) => s.close())));
    this.logger.info('manager stopped');
  }

  /**
   * Starts the cache and waits for every informer to sync, at most `cacheSyncTimeout`. False when
   * `shutdown` came first; a CacheSyncTimeoutError names each kind that did not sync and its last
   * error (a missing CRD, a forbidden list, a failing conversion webhook).
   */
  async #syncCaches(caches: AbortSignal, shutdown: AbortSignal): Promise<boolean> {
    this.cache.start(caches);
    const timeout = clockTimeout(this.#options.clock, this.#options.cacheSyncTimeout);
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
      informerFor: <T extends KubernetesObject>(kind: Kind<T>): SharedInformer<T> => {
        this.#watchedKinds.set(`${kind.apiVersion}/${kind.kind}`, kind);
        return this.cache.informerFor(kind);
      },
      addController: (options) => this.#addController(options),
    };
  }

  #addController(options: Omit<ControllerOptions, 'logger' | 'clock' | 'registry'>): Controller {
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
    this.#names.add(options.name);
    const controller = new Controller({
      ...options,
      logger: this.logger,
      clock: this.#options.clock,
      registry: this.#options.registry,
    });
    this.#controllers.push(controller);
    // Added while the controllers run: start it now, as controller-runtime's runnable groups do.
    this.#group?.add(controller);
    return controller;
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
        ? ['create', 'patch'].map((verb) => ({ group: 'events.k8s.io', resource: 'events', verb }))
        : [];
    const localWebhooks: Permission[] = this.#options.webhookInstallLocal
      ? ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'].flatMap((resource) =>
          ['create', 'patch'].map((verb) => ({ group: 'admissionregistration.k8s.io', resource, verb })),
        )
      : [];
    return [...watched, ...metricsAuth, ...events, ...localWebhooks, ...this.#options.permissions];
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

  async #startServers(): Promise<RunningServer[]> {
    const metrics = parseBindAddress(this.#options.metricsBindAddress);
    if (metrics) this.#metricsServer = await startMetricsServer({ ...metrics, ...this.#metricsServing() });
    const probes = parseBindAddress(this.#options.healthProbeBindAddress);
    if (probes) this.#probeServer = await this.#probes.listen(probes);
    // Before the caches: a cache of a converted kind syncs only once /convert answers.
    const webhooks = this.webhookServer.hasHandlers ? await this.webhookServer.start() : undefined;
    if (webhooks && this.#options.webhookInstallLocal) {
      const installed = await installLocalWebhooks(
        this.client,
        this.webhookServer,
        this.#options.webhookInstallLocal,
      );
      this.logger.info('webhook configurations point at this process', {
        configurations: installed.map((c) => `${c.kind ?? ''}/${c.metadata?.name ?? ''}`),
      });
    }
    const servers = [this.#metricsServer, this.#probeServer, webhooks].filter((s) => s !== undefined);
    for (const server of servers) this.logger.info('serving', { url: server.url });
    return servers;
  }

  async #runAsLeader(shutdown: AbortSignal, caches: AbortSignal): Promise<void> {
    const { kubeConfig, leaderElectionNamespace, leaderElectionId, warmup } = this.#options;
    const lease = `${leaderElectionNamespace}/${leaderElectionId}`;
    const elector = new LeaderElector({
      lock: leaseLock(kubeConfig, leaderElectionNamespace, leaderElectionId),
      leaseDuration: this.#options.leaseDuration,
      renewDeadline: this.#options.renewDeadline,
      retryPeriod: this.#options.retryPeriod,
      clock: this.#options.clock,
      logger: this.logger.child({ component: 'leader-election' }),
      callbacks: {
        onStartedLeading: async (leading, lost) => {
          this.#coldStandby = false;
          // A cold standby lists only once it leads; a warm one synced before it competed.
          if (!warmup && !(await this.#syncCaches(caches, leading))) return;
          await this.#runControllers(leading, lost);
        },
      },
    });
    this.#coldStandby = !warmup;
    this.logger.info('waiting for the leader lease', { lease, identity: elector.identity });
    const end = await elector.run(shutdown);
    if (end === 'lost') {
      this.#leaseLost = true;
      throw new LeaderElectionLostError(lease);
    }
  }

  /**
   * Runs every controller, and those added later, until `stop` aborts or one fails, then drains
   * within the graceful-shutdown timeout. `lost` aborting (the lease lost, even mid-drain) aborts
   * the reconciles in flight at once, as controller-runtime sets the graceful timeout to 0 then.
   */
  async #runControllers(stop: AbortSignal, lost?: AbortSignal): Promise<void> {
    const group = new ControllerGroup({
      gracefulShutdownTimeout: this.#options.gracefulShutdownTimeout,
      clock: this.#options.clock,
      logger: this.logger,
    });
    const onLost = (): void => group.abortNow(lost?.reason);
    if (lost?.aborted) onLost();
    else lost?.addEventListener('abort', onLost, { once: true });
    this.#group = group;
    this.#state = 'running';
    try {
      for (const controller of this.#controllers) group.add(controller);
      // A manager without controllers (webhooks only, say) still serves until it is stopped.
      await group.run(stop);
    } finally {
      lost?.removeEventListener('abort', onLost);
      this.#state = 'stopped';
      this.#group = undefined;
    }
  }
}
