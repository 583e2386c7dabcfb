import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** controller-runtime's webhook metrics, under its names and labels, so its dashboards work unchanged. */
export interface WebhookMetrics {
  /** Labels: webhook (the path), code (the HTTP status). */
  readonly requestsTotal: Counter<'webhook' | 'code'>;
  readonly latency: Histogram<'webhook'>;
  readonly inFlight: Gauge<'webhook'>;
}

const registered = new WeakMap<Registry, WebhookMetrics>();

/** The webhook metrics in `registry`, registered on first use (a registry refuses a name twice). */
export function webhookMetrics(registry: Registry): WebhookMetrics {
  const existing = registered.get(registry);
  if (existing) return existing;
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
  registered.set(registry, metrics);
  return metrics;
}
