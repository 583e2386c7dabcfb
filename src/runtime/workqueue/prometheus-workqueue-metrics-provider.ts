import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { metricsRegistry } from '../metrics/registry.ts';
import type { InFlightWork, WorkqueueMetricsProvider } from './workqueue-metrics-provider.ts';

/** controller-runtime's buckets: ten decades from 10 ns to 1000 s. */
const DURATION_BUCKETS = [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1000];

/**
 * The workqueue_* metrics under controller-runtime's names, help texts and labels (`name` and
 * `controller`, both the queue's name; `priority` on the depth), registered in `registry`.
 *
 * @example
 * const provider = createPrometheusWorkqueueMetricsProvider(new Registry());
 * const queue = new Workqueue({ name: 'webapp', metricsProvider: provider });
 */
export function createPrometheusWorkqueueMetricsProvider(registry: Registry): WorkqueueMetricsProvider {
  const labelNames = ['name', 'controller'] as const;
  const inFlight = new Map<string, Set<() => InFlightWork>>();
  const readInFlight = (pick: (work: InFlightWork) => number) =>
    function collect(this: Gauge<'name' | 'controller'>): void {
      this.reset();
      for (const [name, reads] of inFlight) {
        let value = 0;
        for (const read of reads) value = Math.max(value, pick(read()));
        this.set({ name, controller: name }, value);
      }
    };
  const depth = new Gauge({
    name: 'workqueue_depth',
    help: 'Current depth of workqueue by workqueue and priority',
    labelNames: ['name', 'controller', 'priority'],
    registers: [registry],
  });
  const adds = new Counter({
    name: 'workqueue_adds_total',
    help: 'Total number of adds handled by workqueue',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'workqueue_queue_duration_seconds',
    help: 'How long in seconds an item stays in workqueue before being requested',
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const work = new Histogram({
    name: 'workqueue_work_duration_seconds',
    help: 'How long in seconds processing an item from workqueue takes.',
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: 'workqueue_unfinished_work_seconds',
    help:
      "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. " +
      'Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at ' +
      'which this increases.',
    labelNames,
    registers: [registry],
    collect: readInFlight((work) => work.unfinishedSeconds),
  });
  new Gauge({
    name: 'workqueue_longest_running_processor_seconds',
    help: 'How many seconds has the longest running processor for workqueue been running.',
    labelNames,
    registers: [registry],
    collect: readInFlight((work) => work.longestRunningSeconds),
  });
  const retries = new Counter({
    name: 'workqueue_retries_total',
    help: 'Total number of retries handled by workqueue',
    labelNames,
    registers: [registry],
  });
  const labels = (name: string) => ({ name, controller: name });
  return {
    depth(name) {
      const byPriority = new Map<number, Gauge.Internal<'name' | 'controller' | 'priority'>>();
      const at = (priority: number) => {
        let child = byPriority.get(priority);
        if (child === undefined) {
          child = depth.labels({ ...labels(name), priority: String(priority) });
          byPriority.set(priority, child);
        }
        return child;
      };
      return { inc: (priority) => at(priority).inc(), dec: (priority) => at(priority).dec() };
    },
    adds: (name) => adds.labels(labels(name)),
    queueDuration: (name) => latency.labels(labels(name)),
    workDuration: (name) => work.labels(labels(name)),
    retries: (name) => retries.labels(labels(name)),
    observeInFlight(name, read) {
      const reads = inFlight.get(name) ?? new Set();
      inFlight.set(name, reads);
      reads.add(read);
      return () => {
        reads.delete(read);
        if (reads.size === 0) inFlight.delete(name);
      };
    },
  };
}

let defaultProvider: WorkqueueMetricsProvider | undefined;

/** The provider on the shared `metricsRegistry`, created (so registered) once, on first use. */
export function defaultWorkqueueMetricsProvider(): WorkqueueMetricsProvider {
  defaultProvider ??= createPrometheusWorkqueueMetricsProvider(metricsRegistry);
  return defaultProvider;
}
