import { Counter, Gauge, Histogram, type Registry } from '../metrics/prom-client.ts';
import { oncePerRegistry } from '../metrics/once-per-registry.ts';

/** controller-runtime's webhook metrics, under its names and labels, so its dashboards work unchanged. */
export interface WebhookMetrics {
  /** Labels: webhook (the path), code (the HTTP status). */
  readonly requestsTotal: Counter<'webhook' | 'code'>;
  readonly latency: Histogram<'webhook'>;
  readonly inFlight: Gauge<'webhook'>;
}

/** The webhook metrics in `registry`, registered on first use. */
export const webhookMetrics: (registry: Registry) => WebhookMetrics = oncePerRegistry((registry) => {
  const registers = [registry];
  const metrics: WebhookMetrics = {
    requestsTotal: new Counter({
      name: 'controller_runtime_webhook_requests_total',
      help: 'Total number of admission requests by HTTP status code.',
      labelNames: ['webhook', 'code'],
      registers,
    }),
    // prom-client's default buckets are Prometheus' DefBuckets, which controller-runtime uses.
    latency: new Histogram({
      name: 'controller_runtime_webhook_latency_seconds',
      help: 'Histogram of the latency of processing admission requests',
      labelNames: ['webhook'],
      registers,
    }),
    inFlight: new Gauge({
      name: 'controller_runtime_webhook_requests_in_flight',
      help: 'Current number of admission requests being served.',
      labelNames: ['webhook'],
      registers,
    }),
  };
  return metrics;
});
