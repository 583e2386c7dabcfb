import type { KubernetesObject } from '@kubernetes/client-node';
import { newCache, type Cache } from '../cache/cache.ts';
import type { SharedInformer } from '../cache/informer.ts';
import { newClient, type Client } from '../client/client.ts';
import type { Kind } from '../client/kind.ts';
import { transportFor } from '../client/transport.ts';
import { ControllerBuilder } from '../builder/controller-builder.ts';
import { Controller } from '../controller/controller.ts';
import type { ControllerOptions } from '../controller/controller-options.ts';
import type { HealthChecker } from '../health/health-checker.ts';
import { ping } from '../health/health-checker.ts';
import { HealthProbes } from '../health/health-probes.ts';
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
import { checkPermissions, type Permission } from './permission-check.ts';
import { shutdownSignal } from './shutdown-signal.ts';

/** What reviewing metrics callers takes: Kubebuilder's metrics-auth role. */
const METRICS_AUTH_PERMISSIONS: readonly Permission[] = [
  { group: 'authentication.k8s.io', resource: 'tokenreviews', verb: 'create' },
  { group: 'authorization.k8s.io', resource: 'subjectaccessreviews', verb: 'create' },
];

/** The lease was lost while leading: the process must exit non-zero so it restarts as a follower. */
export class LeaderElectionLostError extends Error {
  constructor(lease: string) {
    super(`leader election lost: lease ${lease}`);
    this.name = 'LeaderElectionLostError';
  }
}

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
  #metricsServer: RunningServer | undefined;
  #probeServer: RunningServer | undefined;

  private constructor(options: ResolvedManagerOptions) {
    this.#options = options;
    this.logger = options.logger;
    const namespaces = options.namespace ? [options.namespace] : undefined;
    this.cache = newCache({
      kubeConfig: options.kubeConfig,
      logger: options.logger.child({ component: 'cache' }),
      ...(namespaces ? { namespaces } : {}),
    });
    this.client = newClient({
      kubeConfig: options.kubeConfig,
      cache: this.cache,
      fieldManager: options.fieldManager,
    });
    this.#probes.addHealthzCheck('ping', ping);
    this.#probes.addReadyzCheck('informers', () => {
      if (!this.#cachesSynced) throw new Error('caches have not synced yet');
    });
  }

  /** Creates a manager; nothing runs until `start`. */
  static async create(options: ManagerOptions = {}): Promise<Manager> {
    return new Manager(resolveManagerOptions(options));
  }

  /** The KubeConfig the manager talks to the API server with. */
  get kubeConfig(): ManagerOptions['kubeConfig'] {
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
   * Runs until `signal` aborts (default: SIGTERM or SIGINT). Rejects when start-up fails (missing
   * permissions, caches that never sync), when a controller stops on a panic, and with
   * LeaderElectionLostError when the lease is lost.
   */
  async start(signal?: AbortSignal): Promise<void> {
    const shutdown =
      signal ?? (this.#options.handleSignals ? shutdownSignal(this.logger) : new AbortController().signal);
    const servers = await this.#startServers();
    const caches = new AbortController();
    try {
      if (this.#options.checkPermissions)
        await checkPermissions(this.#options.kubeConfig, this.#requiredPermissions());
      if (this.webhookServer.url && this.#options.webhookInstallLocal) {
        const installed = await installLocalWebhooks(
          this.client,
          this.webhookServer,
          this.#options.webhookInstallLocal,
        );
        this.logger.info('webhook configurations point at this process', {
          configurations: installed.map((c) => `${c.kind ?? ''}/${c.metadata?.name ?? ''}`),
        });
      }
      this.cache.start(caches.signal);
      if (!(await this.cache.waitForCacheSync(shutdown))) return;
      this.#cachesSynced = true;
      this.logger.info('caches synced', { kinds: [...this.#watchedKinds.keys()] });
      await (this.#options.leaderElection ? this.#runAsLeader(shutdown) : this.#runControllers(shutdown));
    } finally {
      // Events recorded by the last reconciles are still being written.
      await Promise.all([...this.#recorders.values()].map((r) => r.flush()));
      caches.abort();
      await Promise.all(servers.map((s) => s.close()));
      this.logger.info('manager stopped');
    }
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
    const { registry, metricsSecure, enableHttp2, metricsCertPath, kubeConfig, clock } = this.#options;
    return {
      registry,
      secure: metricsSecure,
      enableHttp2,
      logger: this.logger.child({ component: 'metrics' }),
      auth: { transport: transportFor(kubeConfig), clock },
      ...(metricsCertPath ? { certPath: metricsCertPath } : {}),
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
      this.logger.info('webhook configurations point at this process', { configurations: installed });
    }
    const servers = [this.#metricsServer, this.#probeServer, webhooks].filter((s) => s !== undefined);
    for (const server of servers) this.logger.info('serving', { url: server.url });
    return servers;
  }

  async #runAsLeader(shutdown: AbortSignal): Promise<void> {
    const { kubeConfig, leaderElectionNamespace, leaderElectionId } = this.#options;
    const elector = new LeaderElector({
      lock: leaseLock(kubeConfig, leaderElectionNamespace, leaderElectionId),
      leaseDuration: this.#options.leaseDuration,
      renewDeadline: this.#options.renewDeadline,
      retryPeriod: this.#options.retryPeriod,
      clock: this.#options.clock,
      logger: this.logger.child({ component: 'leader-election' }),
      callbacks: { onStartedLeading: (leading) => this.#runControllers(leading) },
    });
    this.logger.info('waiting for the leader lease', {
      lease: `${leaderElectionNamespace}/${leaderElectionId}`,
      identity: elector.identity,
    });
    const end = await elector.run(shutdown);
    if (end === 'lost') throw new LeaderElectionLostError(`${leaderElectionNamespace}/${leaderElectionId}`);
  }

  /** Runs every controller until `stop` aborts, then gives in-flight reconciles the graceful timeout. */
  async #runControllers(stop: AbortSignal): Promise<void> {
    // A manager without controllers (webhooks only, say) still serves until it is stopped.
    if (this.#controllers.length === 0) {
      if (!stop.aborted)
        await new Promise((resolve) => stop.addEventListener('abort', resolve, { once: true }));
      return;
    }
    const hardStop = new AbortController();
    const onStop = (): void => {
      const timer = setTimeout(
        () => hardStop.abort(new Error('graceful shutdown timeout')),
        this.#options.gracefulShutdownTimeout,
      );
      timer.unref();
    };
    stop.addEventListener('abort', onStop, { once: true });
    const failed = new AbortController();
    const runs = this.#controllers.map((c) =>
      c
        .start({ stop: AbortSignal.any([stop, failed.signal]), abortReconciles: hardStop.signal })
        .catch((err: unknown) => {
          // One controller failing stops the others: the process should restart, not limp on.
          failed.abort(err);
          throw err;
        }),
    );
    const settled = await Promise.allSettled(runs);
    stop.removeEventListener('abort', onStop);
    const failure = settled.find((s) => s.status === 'rejected');
    if (failure) throw (failure as PromiseRejectedResult).reason;
  }
}
