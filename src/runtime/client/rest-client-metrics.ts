import { Counter } from '../metrics/prom-client.ts';
import { oncePerRegistry } from '../metrics/once-per-registry.ts';
import { metricsRegistry } from '../metrics/registry.ts';

/**
 * client-go's `rest_client_requests_total{code, host, method}`: every answer the API server gave
 * this process, so dashboards built for Go operators see ours too. Registered on first use.
 */
const restClientRequests = oncePerRegistry(
  (registry) =>
    new Counter({
      name: 'rest_client_requests_total',
      help: 'Number of HTTP requests, partitioned by status code, method, and host.',
      labelNames: ['code', 'host', 'method'],
      registers: [registry],
    }),
);

/** Counts one answer of the API server. */
export function countRestRequest(host: string, method: string, code: number): void {
  restClientRequests(metricsRegistry).inc({ code: String(code), host, method });
}
