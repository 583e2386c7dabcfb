import type { Registry } from 'prom-client';
import { systemClock, type Clock } from '../clock/clock.ts';
import { inClusterNamespace } from '../config/in-cluster-config.ts';
import { loadRestConfig } from '../config/load-rest-config.ts';
import type { RestConfig } from '../config/rest-config.ts';
import { restConfigOf, type RestConfigSource } from '../config/rest-config-source.ts';
import { createLogger, type Logger, type LogLevel } from '../log/logger.ts';
import { metricsRegistry } from '../metrics/registry.ts';
import {
  resolveShardingOptions,
  type ResolvedShardingOptions,
  type ShardingOptions,
} from '../sharding/sharding-options.ts';
import { WebhookServer } from '../webhook/webhook-server.ts';
import type { Permission } from './permission-check.ts';

/** What {@link Manager.create} takes. Durations are in milliseconds. */
export interface ManagerOptions {
  /**
   * The API server and identity: a RestConfig (`loadRestConfig()`), or a client-node KubeConfig.
   * Default: `loadRestConfig()`: `$KUBECONFIG`, then the in-cluster service account, then `~/.kube/config`.
   */
  kubeConfig?: RestConfigSource;
  /** Watch and cache only this namespace. Default: '' (all namespaces). */
  namespace?: string;
  /** `host:port` or `:port` of /metrics; '0' turns it off. Default: ':8443', or ':8080' when not `metricsSecure`. */
  metricsBindAddress?: string;
  /**
   * Serve /metrics over HTTPS to callers the API server authenticates (TokenReview) and authorizes
   * (SubjectAccessReview of `get` on `/metrics`); the manager then needs `create` on tokenreviews and
   * subjectaccessreviews. False serves plain HTTP to anyone. Default: true.
   */
  metricsSecure?: boolean;
  /** Folder with the metrics server's `tls.crt` and `tls.key`, re-read on change. Default: '' (self-signed at start). */
  metricsCertPath?: string;
  /** The certificate's file name in `metricsCertPath` (`--metrics-cert-name`). Default: 'tls.crt'. */
  metricsCertName?: string;
  /** The key's file name in `metricsCertPath` (`--metrics-cert-key`). Default: 'tls.key'. */
  metricsCertKey?: string;
  /**
   * Folder with the webhook server's `tls.crt` and `tls.key` (a mounted Secret), re-read on change.
   * Default: '' (a local CA and serving certificate generated at start, for running outside the cluster).
   * Ignored when `webhookServer` is given.
   */
  webhookCertPath?: string;
  /**
   * For running outside the cluster against a local API server (envtest, say): once the webhook
   * server has started, apply the webhook configurations of this generated manifests file (read
   * only when admission webhooks are registered) pointed at it, and point the installed CRD of each
   * kind it converts at its `/convert` until the manager stops, each trusting the server's CA
   * bundle (see WebhookServer.caBundle). Needs create and patch on the webhook configurations, get
   * and patch on customresourcedefinitions. Default: '' (the configurations come from `npm run
   * deploy`).
   */
  webhookInstallLocal?: string;
  /** Let the metrics server speak HTTP/2. Default: false (HTTP/2 rapid reset, CVE-2023-44487). */
  enableHttp2?: boolean;
  /** `host:port` or `:port` of /healthz and /readyz; '0' turns them off. Default: ':8081'. */
  healthProbeBindAddress?: string;
  /** Run controllers only while holding a Lease, so replicas take turns. Default: false. */
  leaderElection?: boolean;
  /** Name of the Lease. Required when `leaderElection` is on. */
  leaderElectionId?: string;
  /** Namespace of the Lease. Default: the pod's namespace in a cluster, else 'default'. */
  leaderElectionNamespace?: string;
  /**
   * Shard the controllers declared `.sharded()` across the replicas: each holds a shard Lease in
   * `leaderElectionNamespace`, caches and reconciles only the objects labelled with its shard, and
   * the leader assigns and moves objects between shards. Needs `leaderElection`: the unsharded
   * controllers and the sharder run on the leader only. Default: off.
   */
  sharding?: ShardingOptions;
  /** Default: 15 000. */
  leaseDuration?: number;
  /** Default: 10 000. */
  renewDeadline?: number;
  /** Default: 2 000. */
  retryPeriod?: number;
  /**
   * How long in-flight reconciles may run on once the manager stops (SIGTERM, a failed controller)
   * before their signals are aborted and `start` rejects without waiting for them. Default: 30 000.
   */
  gracefulShutdownTimeout?: number;
  /**
   * How long one request to the API server may take before it fails with a RequestTimeoutError
   * (watches excepted: they have their own deadline), for the manager's client and cache.
   * Default: 30 000.
   */
  requestTimeout?: number;
  /**
   * Whether the client and cache speak HTTP/2 to the API server (one connection, checked by PING;
   * see `TransportOptions.http2`). A server or proxy that offers no h2 gets HTTP/1.1 either way.
   * Default: true.
   */
  http2?: boolean;
  /**
   * How long `start` waits for the caches' first lists before it rejects, naming the kinds that did
   * not sync (controller-runtime's CacheSyncTimeout), counted from `start`: waiting for an API
   * server that cannot be reached yet comes out of it. Default: 120 000.
   */
  cacheSyncTimeout?: number;
  /**
   * With leader election: fill the caches before competing for the lease (controller-runtime's
   * EnableWarmup), so a hand-over starts reconciling without waiting for a full list, for one more
   * list and watch per kind on the API server per standby. False lists only once leading.
   * Default: true.
   */
  warmup?: boolean;
  /**
   * Check at start-up that the identity may list and watch every watched kind and holds these
   * permissions (the generated project passes its rbac markers' rules). Default: true.
   */
  checkPermissions?: boolean;
  /** Permissions declared by the project's rbac markers, checked at start-up. Default: none. */
  permissions?: readonly Permission[];
  /** Default: a JSON-lines logger on stderr at `logLevel`. */
  logger?: Logger;
  /** Default: 'info'. */
  logLevel?: LogLevel;
  /** The field manager of the client's writes. Default: 'tsoperator'. */
  fieldManager?: string;
  /** Default: `metricsRegistry`. */
  registry?: Registry;
  /** Default: the system clock. */
  clock?: Clock;
  /** Handle SIGTERM and SIGINT when `start` is given no signal. Default: true. */
  handleSignals?: boolean;
  /**
   * Serves the project's webhooks; the manager starts it, before the caches, when anything is
   * registered on it. Default: port 9443 with a generated local certificate, logging to `logger`
   * and counting in `registry` (pass one with `certDir` in a cluster).
   */
  webhookServer?: WebhookServer;
}

export type ResolvedManagerOptions = Required<
  Omit<ManagerOptions, 'leaderElectionId' | 'kubeConfig' | 'sharding'>
> & {
  leaderElectionId: string;
  kubeConfig: RestConfig;
  sharding: ResolvedShardingOptions | undefined;
};

/** The one place the defaults above are applied. */
export function resolveManagerOptions(options: ManagerOptions): ResolvedManagerOptions {
  const logLevel = options.logLevel ?? 'info';
  if (options.leaderElection && !options.leaderElectionId) {
    throw new Error('leaderElection needs a leaderElectionId: the name of the Lease the replicas share');
  }
  if (options.sharding && !options.leaderElection) {
    throw new Error(
      'sharding needs leaderElection: the leader runs the sharder and the unsharded controllers; set leaderElection and leaderElectionId',
    );
  }
  const leaseDuration = options.leaseDuration ?? 15_000;
  const renewDeadline = options.renewDeadline ?? 10_000;
  const retryPeriod = options.retryPeriod ?? 2_000;
  if (options.sharding) checkShardTimings(leaseDuration, renewDeadline, retryPeriod);
  const logger = options.logger ?? createLogger({ level: logLevel });
  const registry = options.registry ?? metricsRegistry;
  const metricsSecure = options.metricsSecure ?? true;
  return {
    kubeConfig: restConfigOf(options.kubeConfig ?? loadRestConfig({ clock: options.clock ?? systemClock })),
    namespace: options.namespace ?? '',
    metricsBindAddress: options.metricsBindAddress ?? (metricsSecure ? ':8443' : ':8080'),
    metricsSecure,
    metricsCertPath: options.metricsCertPath ?? '',
    metricsCertName: options.metricsCertName ?? 'tls.crt',
    metricsCertKey: options.metricsCertKey ?? 'tls.key',
    webhookCertPath: options.webhookCertPath ?? '',
    webhookInstallLocal: options.webhookInstallLocal ?? '',
    enableHttp2: options.enableHttp2 ?? false,
    healthProbeBindAddress: options.healthProbeBindAddress ?? ':8081',
    leaderElection: options.leaderElection ?? false,
    leaderElectionId: options.leaderElectionId ?? '',
    leaderElectionNamespace: options.leaderElectionNamespace ?? inClusterNamespace() ?? 'default',
    sharding: options.sharding ? resolveShardingOptions(options.sharding) : undefined,
    leaseDuration,
    renewDeadline,
    retryPeriod,
    gracefulShutdownTimeout: options.gracefulShutdownTimeout ?? 30_000,
    cacheSyncTimeout: options.cacheSyncTimeout ?? 120_000,
    requestTimeout: options.requestTimeout ?? 30_000,
    http2: options.http2 ?? true,
    warmup: options.warmup ?? true,
    checkPermissions: options.checkPermissions ?? true,
    permissions: options.permissions ?? [],
    logger,
    logLevel,
    fieldManager: options.fieldManager ?? 'tsoperator',
    registry,
    clock: options.clock ?? systemClock,
    handleSignals: options.handleSignals ?? true,
    webhookServer:
      options.webhookServer ??
      new WebhookServer({
        registry,
        logger: logger.child({ component: 'webhook' }),
        ...(options.webhookCertPath ? { certDir: options.webhookCertPath } : {}),
      }),
  };
}

/**
 * A shard must have stopped reconciling before the sharder, which takes its Lease once it has not
 * changed for leaseDuration, moves its objects. client-go's elector needs leaseDuration >
 * renewDeadline > retryPeriod × 1.2 (its jitter factor); a shard that cannot renew gives up only a
 * retry period after its last renewal plus the renew deadline of attempts, and then still has to
 * abort its reconciles, its timers late on a busy node: one more retry period of margin.
 */
function checkShardTimings(leaseDuration: number, renewDeadline: number, retryPeriod: number): void {
  const needed = renewDeadline + 2 * retryPeriod;
  if (leaseDuration >= needed) return;
  throw new Error(
    `sharding needs leaseDuration >= renewDeadline + 2 × retryPeriod (${renewDeadline} + 2 × ${retryPeriod} = ${needed} ms), but leaseDuration is ${leaseDuration} ms: a shard that cannot renew gives up a retry period plus the renew deadline after its last renewal, and needs one more retry period to stop its reconciles before the sharder moves its objects; raise leaseDuration or lower renewDeadline`,
  );
}

/** `:8080` → { port: 8080 }, `127.0.0.1:0` → { host, port: 0 }, '0' → undefined (off). */
export function parseBindAddress(address: string): { host?: string; port: number } | undefined {
  if (address === '0' || address === '') return undefined;
  const colon = address.lastIndexOf(':');
  const port = Number(address.slice(colon + 1));
  if (colon < 0 || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`bind address "${address}" is not host:port or :port (use "0" to turn the server off)`);
  }
  const host = address.slice(0, colon).replace(/^\[|\]$/g, '');
  return host ? { host, port } : { port };
}
