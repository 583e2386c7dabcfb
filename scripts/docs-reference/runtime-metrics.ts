import type { Registry } from 'prom-client';
import { reportSkippedObject } from '../../src/runtime/cache/skipped-object.ts';
import { PodKind } from '../../src/runtime/client/kinds.ts';
import { countRestRequest } from '../../src/runtime/client/rest-client-metrics.ts';
import { controllerMetrics } from '../../src/runtime/controller/controller-metrics.ts';
import { countDroppedEvent } from '../../src/runtime/events/dropped-events.ts';
// Registers leader_election_master_status in metricsRegistry when loaded, as in an operator.
import '../../src/runtime/leader/leader-metrics.ts';
import { silentLogger } from '../../src/runtime/log/logger.ts';
import { registerProcessCpuMetrics } from '../../src/runtime/metrics/process-cpu-metrics.ts';
import { metricsRegistry } from '../../src/runtime/metrics/registry.ts';
import { shardingMetrics } from '../../src/runtime/sharding/sharding-metrics.ts';
import { webhookMetrics } from '../../src/runtime/webhook/webhook-metrics.ts';
import { defaultWorkqueueMetricsProvider } from '../../src/runtime/workqueue/prometheus-workqueue-metrics-provider.ts';

/** One metric as the page lists it. */
export interface MetricEntry {
  readonly name: string;
  readonly type: string;
  readonly help: string;
  readonly labels: readonly string[];
}

/**
 * The runtime's shared registry, holding every metric the runtime registers in an operator, each
 * made by the code that makes it there. This process is fresh, so the registry holds nothing else.
 * Most metrics are registered on first use; the REST client's, the informer's and the event
 * recorder's counters are made only by their first count, so one count is recorded (the page
 * shows no values).
 */
export function registerRuntimeMetrics(): Registry {
  controllerMetrics(metricsRegistry);
  webhookMetrics(metricsRegistry);
  shardingMetrics(metricsRegistry);
  // What the metrics server adds beside prom-client's default Node metrics.
  registerProcessCpuMetrics(metricsRegistry);
  const workqueue = defaultWorkqueueMetricsProvider();
  // The queue histograms tell their labels only through a series they have observed into.
  workqueue.queueDuration('docs').observe(0);
  workqueue.workDuration('docs').observe(0);
  countRestRequest('docs', 'GET', 200);
  reportSkippedObject(silentLogger, PodKind, {}, 'transform', new Error('docs'));
  countDroppedEvent('docs', 'queue_full');
  return metricsRegistry;
}

/** Every metric of `registry`, by name, with the labels its series carry. */
export async function describeMetrics(registry: Registry): Promise<MetricEntry[]> {
  const declared = new Map(registry.getMetricsAsArray().map((metric) => [metric.name, labelNamesOf(metric)]));
  const collected = await registry.getMetricsAsJSON();
  return collected
    .map((metric) => ({
      name: metric.name,
      type: String(metric.type),
      help: metric.help,
      labels: declared.get(metric.name) ?? sampleLabels(metric.values),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** prom-client keeps a metric's declared labels in `labelNames`; the queue histograms do not. */
function labelNamesOf(metric: object): readonly string[] | undefined {
  const labelNames: unknown = (metric as { labelNames?: unknown }).labelNames;
  return Array.isArray(labelNames) ? labelNames.map(String) : undefined;
}

/** The label names of a metric's samples, but a histogram's bucket bound `le`. */
function sampleLabels(values: readonly { labels: object }[]): string[] {
  const names = new Set(values.flatMap((value) => Object.keys(value.labels)));
  names.delete('le');
  return [...names];
}
