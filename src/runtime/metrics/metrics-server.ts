import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DelegatedAuthOptions } from '../auth/delegated-auth-options.ts';
import { withAuthenticationAndAuthorization } from '../auth/with-authentication-and-authorization.ts';
import { silentLogger, type Logger } from '../log/logger.ts';
import { sendText, startHttpServer, type RequestHandler, type RunningServer } from '../server/http-server.ts';
import { startSecureServer } from '../server/secure-server.ts';
import { CertificateWatcher } from '../tls/certificate-watcher.ts';
import { fixedCertificate, type CertificateSource } from '../tls/certificate-source.ts';
import { selfSignedCertificate } from '../tls/self-signed-certificate.ts';
import { registerProcessCpuMetrics } from './process-cpu-metrics.ts';
import { defaultMetricsButCpu, type Registry } from './prom-client.ts';
import { metricsRegistry } from './registry.ts';

/** Where and what the metrics server serves. */
export interface MetricsServerOptions {
  /** TCP port; 0 picks a free one. Default: 8443 when secure, else 8080, as Kubebuilder's. */
  port?: number;
  /** Interface to bind. Default: all interfaces. */
  host?: string;
  /** The registry served on /metrics. Default: metricsRegistry. */
  registry?: Registry;
  /** Also collect prom-client's Node process metrics (CPU, memory, event loop lag, GC). Default: true. */
  processMetrics?: boolean;
  /**
   * Serve HTTPS, and only to callers whose bearer token the API server authenticates and who may
   * `get` the non-resource URL `/metrics`. False serves plain HTTP to anyone. Default: true.
   */
  secure?: boolean;
  /** How tokens and access are reviewed; required when `secure`. */
  auth?: DelegatedAuthOptions;
  /** Folder holding `certName` and `keyName`, re-read when it changes. Default: a self-signed pair made at start. */
  certPath?: string;
  /** The certificate's file name in `certPath`. Default: 'tls.crt'. */
  certName?: string;
  /** The key's file name in `certPath`. Default: 'tls.key'. */
  keyName?: string;
  /** Also serve HTTP/2 when secure. Default: false (see SecureServerOptions.enableHttp2). */
  enableHttp2?: boolean;
  /** Where certificate reloads and failed reviews are reported. Default: silentLogger. */
  logger?: Logger;
}

/**
 * Serves a Prometheus registry on `/metrics`, in the text format Prometheus scrapes: by default over
 * HTTPS to authorized callers only, as controller-runtime's secure metrics server.
 *
 * @example
 * ```ts
 * const server = await startMetricsServer({ auth: { transport: transportFor(kubeConfig) } });
 * await server.close();
 * ```
 */
export async function startMetricsServer(options: MetricsServerOptions = {}): Promise<RunningServer> {
  const { host, registry = metricsRegistry, processMetrics = true, secure = true } = options;
  const port = options.port ?? (secure ? 8443 : 8080);
  const logger = options.logger ?? silentLogger;
  if (processMetrics) registerProcessMetrics(registry);
  const serve = (req: IncomingMessage, res: ServerResponse): Promise<void> =>
    serveMetrics(registry, req, res);
  const listen = host === undefined ? { port } : { port, host };
  if (!secure) return startHttpServer(serve, listen);
  if (!options.auth) {
    throw new Error(
      'a secure metrics server needs `auth` to review tokens with; pass `secure: false` for plain HTTP',
    );
  }
  const handler: RequestHandler = withAuthenticationAndAuthorization(serve, { logger, ...options.auth });
  const certificate = await metricsCertificate(options, host, logger);
  return startSecureServer(handler, { ...listen, certificate, enableHttp2: options.enableHttp2 ?? false });
}

/**
 * Registers the metrics of prom-client's `collectDefaultMetrics` in `registry` (the CPU counters
 * our own), once however often it is called.
 */
export function registerProcessMetrics(registry: Registry): void {
  if (registry.getSingleMetric('process_cpu_user_seconds_total') !== undefined) return;
  registerProcessCpuMetrics(registry);
  for (const register of defaultMetricsButCpu()) register(registry, { eventLoopMonitoringPrecision: 10 });
}

function metricsCertificate(
  { certPath, certName, keyName }: Pick<MetricsServerOptions, 'certPath' | 'certName' | 'keyName'>,
  host: string | undefined,
  logger: Logger,
): Promise<CertificateSource> | CertificateSource {
  if (certPath) {
    return CertificateWatcher.start(certPath, {
      logger,
      ...(certName ? { certName } : {}),
      ...(keyName ? { keyName } : {}),
    });
  }
  const specificHost = host !== undefined && host !== '0.0.0.0' && host !== '::';
  return fixedCertificate(selfSignedCertificate('metrics', specificHost ? [host] : []));
}

async function serveMetrics(registry: Registry, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { pathname } = new URL(req.url ?? '/', 'http://metrics');
  if (pathname !== '/metrics') return sendText(res, 404, '404 page not found\n');
  sendText(res, 200, await registry.metrics(), registry.contentType);
}
