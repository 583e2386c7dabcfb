import { Registry } from './prom-client.ts';

/**
 * The registry every runtime metric is registered in and that the manager serves on /metrics, as
 * controller-runtime's `metrics.Registry`. Reconciler authors may register their own metrics here.
 */
export const metricsRegistry: Registry = new Registry();
