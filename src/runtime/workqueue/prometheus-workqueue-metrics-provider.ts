import { Counter, Gauge, type Registry } from '../metrics/prom-client.ts';
import { oncePerRegistry } from '../metrics/once-per-registry.ts';
import { metricsRegistry } from '../metrics/registry.ts';
import { PriorityCounts } from './priority-counts.ts';
import { ScrapeTimeHistogram } from './scrape-time-histogram.ts';
import type { InFlightWork, WorkqueueMetricsProvider } from './workqueue-metrics-provider.ts';

/** controller-runtime's buckets: twelve, a decade apart, from 10 ns to 1000 s. */
const DURATION_BUCKETS = [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1000];

type QueueLabel = 'name' | 'controller';

/**
 * What the queues of one name count between two collections. prom-client checks and hashes the
 * label set on every `inc`, which costs more than the queue operation itself: counts and depths are
 * kept here in plain numbers and handed to prom-client when the registry collects (the histograms
 * likewise, in {@link ScrapeTimeHistogram}).
 */
interface QueueSeries {
  adds: number;
  retries: number;
  readonly depth: PriorityCounts;
  readonly inFlight: Set<() => InFlightWork>;
}

/**
 * The workqueue_* metrics under controller-runtime's names, help texts and labels (`name` and
 * `controller`, both the queue's name; `priority` on the depth), registered in `registry`.
 *
 * @example
 * const provider = createPrometheusWorkqueueMetricsProvider(new Registry());
 * const queue = new Workqueue({ name: 'webapp', metricsProvider: provider });
 */
export function createPrometheusWorkqueueMetricsProvider(registry: Registry): WorkqueueMetricsProvider {
  const series = new Map<string, QueueSeries>();
  const seriesOf = (name: string): QueueSeries => {
    let found = series.get(name);
    if (found === undefined) {
      found = { adds: 0, retries: 0, depth: new PriorityCounts(), inFlight: new Set() };
      series.set(name, found);
    }
    return found;
  };
  const labels = (name: string) => ({ name, controller: name });
  const publishCount = (field: 'adds' | 'retries') =>
    function collect(this: Counter<QueueLabel>): void {
      for (const [name, counted] of series) {
        this.inc(labels(name), counted[field]);
        counted[field] = 0;
      }
    };
  const publishInFlight = (pick: (work: InFlightWork) => number) =>
    function collect(this: Gauge<QueueLabel>): void {
      this.reset();
      for (const [name, { inFlight }] of series) {
        if (inFlight.size === 0) continue;
        let value = 0;
        for (const read of inFlight) value = Math.max(value, pick(read()));
        this.set(labels(name), value);
      }
    };
  new Gauge({
    name: 'workqueue_depth',
    help: 'Current depth of workqueue by workqueue and priority',
    labelNames: ['name', 'controller', 'priority'],
    registers: [registry],
    collect(this: Gauge<QueueLabel | 'priority'>): void {
      for (const [name, { depth }] of series) {
        for (const [priority, value] of depth.entries())
          this.set({ ...labels(name), priority: String(priority) }, value);
      }
    },
  });
  new Counter({
    name: 'workqueue_adds_total',
    help: 'Total number of adds handled by workqueue',
    labelNames: ['name', 'controller'],
    registers: [registry],
    collect: publishCount('adds'),
  });
  const latency = new ScrapeTimeHistogram<QueueLabel>({
    name: 'workqueue_queue_duration_seconds',
    help: 'How long in seconds an item stays in workqueue before being requested',
    labelNames: ['name', 'controller'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const work = new ScrapeTimeHistogram<QueueLabel>({
    name: 'workqueue_work_duration_seconds',
    help: 'How long in seconds processing an item from workqueue takes.',
    labelNames: ['name', 'controller'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: 'workqueue_unfinished_work_seconds',
    help:
      "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. " +
      'Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at ' +
      'which this increases.',
    labelNames: ['name', 'controller'],
    registers: [registry],
    collect: publishInFlight((inFlight) => inFlight.unfinishedSeconds),
  });
  new Gauge({
    name: 'workqueue_longest_running_processor_seconds',
    help: 'How many seconds has the longest running processor for workqueue been running.',
    labelNames: ['name', 'controller'],
    registers: [registry],
    collect: publishInFlight((inFlight) => inFlight.longestRunningSeconds),
  });
  new Counter({
    name: 'workqueue_retries_total',
    help: 'Total number of retries handled by workqueue',
    labelNames: ['name', 'controller'],
    registers: [registry],
    collect: publishCount('retries'),
  });
  return {
    depth(name) {
      const { depth } = seriesOf(name);
      return { inc: (priority) => depth.add(priority, 1), dec: (priority) => depth.add(priority, -1) };
    },
    adds(name) {
      const counted = seriesOf(name);
      return { inc: () => counted.adds++ };
    },
    retries(name) {
      const counted = seriesOf(name);
      return { inc: () => counted.retries++ };
    },
    queueDuration: (name) => latency.series(labels(name)),
    workDuration: (name) => work.series(labels(name)),
    observeInFlight(name, read) {
      const { inFlight } = seriesOf(name);
      inFlight.add(read);
      return () => inFlight.delete(read);
    },
  };
}

/**
 * The provider registered in `registry`, created on first use: any number of queues and
 * controllers may ask for it.
 */
export const workqueueMetricsProviderFor: (registry: Registry) => WorkqueueMetricsProvider = oncePerRegistry(
  createPrometheusWorkqueueMetricsProvider,
);

/** The provider on the shared `metricsRegistry`, created (so registered) once, on first use. */
export function defaultWorkqueueMetricsProvider(): WorkqueueMetricsProvider {
  return workqueueMetricsProviderFor(metricsRegistry);
}
