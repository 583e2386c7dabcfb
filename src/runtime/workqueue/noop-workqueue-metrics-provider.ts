import type { WorkqueueMetricsProvider } from './workqueue-metrics-provider.ts';

const noop = (): void => undefined;
const counter = { inc: noop };
const histogram = { observe: noop };
const depth = { inc: noop, dec: noop };

/** Metrics that go nowhere: what an unnamed queue gets, as in client-go. */
export const noopWorkqueueMetricsProvider: WorkqueueMetricsProvider = {
  depth: () => depth,
  adds: () => counter,
  queueDuration: () => histogram,
  workDuration: () => histogram,
  retries: () => counter,
  observeInFlight: () => noop,
};
