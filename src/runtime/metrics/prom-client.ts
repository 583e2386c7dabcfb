import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';

// prom-client's index also loads its Pushgateway, its cluster aggregator and its default metrics,
// whose CPU counters load @opentelemetry/api: about 8 MiB of RSS, measured, that an operator need
// not carry. The runtime takes the classes from the files the index re-exports, so they are the
// very classes a reconciler author gets from `prom-client`.
const require = createRequire(import.meta.url);

/** prom-client's Registry. */
export const Registry = require('prom-client/lib/registry.js') as typeof PromClient.Registry;
export type Registry = PromClient.Registry;

/** prom-client's Counter. */
export const Counter = require('prom-client/lib/counter.js') as typeof PromClient.Counter;
export type Counter<T extends string = string> = PromClient.Counter<T>;

/** prom-client's Gauge. */
export const Gauge = require('prom-client/lib/gauge.js') as typeof PromClient.Gauge;
export type Gauge<T extends string = string> = PromClient.Gauge<T>;

/** prom-client's Histogram. */
export const Histogram = require('prom-client/lib/histogram.js') as typeof PromClient.Histogram;
export type Histogram<T extends string = string> = PromClient.Histogram<T>;

/** One of prom-client's default Node metrics: registers its metrics in `registry`. */
type DefaultMetric = (registry: PromClient.Registry, config: Record<string, unknown>) => void;

/**
 * prom-client's default Node metrics but its CPU counters (see processCpuMetrics), in the order
 * `collectDefaultMetrics` registers them.
 */
export function defaultMetricsButCpu(): DefaultMetric[] {
  const names = [
    'processStartTime',
    'osMemoryHeap',
    'processOpenFileDescriptors',
    'processMaxFileDescriptors',
    'eventLoopLag',
    ...(typeof process.getActiveResourcesInfo === 'function' ? ['processResources'] : []),
    'processHandles',
    'processRequests',
    'heapSizeAndUsed',
    'heapSpacesSizeAndUsed',
    'version',
    'gc',
  ];
  return names.map((name) => require(`prom-client/lib/metrics/${name}.js`) as DefaultMetric);
}
