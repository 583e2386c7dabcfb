import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, type Registry } from 'prom-client';
import { sendText, startHttpServer, type RunningServer } from '../server/http-server.ts';
import { metricsRegistry } from './registry.ts';

/** Where and what the metrics server serves. */
export interface MetricsServerOptions {
  /** TCP port; 0 picks a free one. Default: 8080, as controller-runtime's metrics server. */
  port?: number;
  /** Interface to bind. Default: all interfaces. */
  host?: string;
  /** The registry served on /metrics. Default: metricsRegistry. */
  registry?: Registry;
  /** Also collect prom-client's Node process metrics (CPU, memory, event loop lag, GC). Default: true. */
  processMetrics?: boolean;
}

/**
 * Serves a Prometheus registry on `/metrics`, in the text format Prometheus scrapes.
 *
 * @example
 * ```ts
 * const server = await startMetricsServer({ port: 8080 });
 * await server.close();
 * ```
 */
export function startMetricsServer(options: MetricsServerOptions = {}): Promise<RunningServer> {
  const { port = 8080, host, registry = metricsRegistry, processMetrics = true } = options;
  if (processMetrics) registerProcessMetrics(registry);
  const handler = (req: IncomingMessage, res: ServerResponse): Promise<void> =>
    serveMetrics(registry, req, res);
  return startHttpServer(handler, host === undefined ? { port } : { port, host });
}

/** Registers prom-client's default Node metrics in `registry`, once however often it is called. */
export function registerProcessMetrics(registry: Registry): void {
  if (registry.getSingleMetric('process_cpu_user_seconds_total') !== undefined) return;
  collectDefaultMetrics({ register: registry });
}

async function serveMetrics(registry: Registry, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { pathname } = new URL(req.url ?? '/', 'http://metrics');
  if (pathname !== '/metrics') return sendText(res, 404, '404 page not found\n');
  sendText(res, 200, await registry.metrics(), registry.contentType);
}
