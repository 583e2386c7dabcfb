import { Counter, Gauge, Histogram, type Registry } from '../metrics/prom-client.ts';
import { oncePerRegistry } from '../metrics/once-per-registry.ts';
import { metricsRegistry } from '../metrics/registry.ts';

/** How a reconcile ended, as the `result` label of controller_runtime_reconcile_total. */
export type ReconcileOutcome = 'success' | 'error' | 'requeue' | 'requeue_after';

const RECONCILE_OUTCOMES: readonly ReconcileOutcome[] = ['success', 'error', 'requeue', 'requeue_after'];

/** controller-runtime's per-controller metrics, under its names, so its dashboards work unchanged. */
export interface ControllerMetrics {
  readonly reconcileTotal: Counter<'controller' | 'result'>;
  readonly reconcileErrors: Counter<'controller'>;
  readonly terminalReconcileErrors: Counter<'controller'>;
  readonly reconcilePanics: Counter<'controller'>;
  readonly reconcileTime: Histogram<'controller'>;
  readonly maxConcurrentReconciles: Gauge<'controller'>;
  readonly activeWorkers: Gauge<'controller'>;
}

/** The controller metrics in `registry`, registered on first use. */
export function controllerMetrics(registry: Registry = metricsRegistry): ControllerMetrics {
  return registeredControllerMetrics(registry);
}

const registeredControllerMetrics = oncePerRegistry((registry): ControllerMetrics => {
  const registers = [registry];
  const metrics: ControllerMetrics = {
    reconcileTotal: new Counter({
      name: 'controller_runtime_reconcile_total',
      help: 'Total number of reconciliations per controller',
      labelNames: ['controller', 'result'],
      registers,
    }),
    reconcileErrors: new Counter({
      name: 'controller_runtime_reconcile_errors_total',
      help: 'Total number of reconciliation errors per controller',
      labelNames: ['controller'],
      registers,
    }),
    terminalReconcileErrors: new Counter({
      name: 'controller_runtime_terminal_reconcile_errors_total',
      help: 'Total number of terminal reconciliation errors per controller',
      labelNames: ['controller'],
      registers,
    }),
    reconcilePanics: new Counter({
      name: 'controller_runtime_reconcile_panics_total',
      help: 'Total number of reconciliation panics per controller',
      labelNames: ['controller'],
      registers,
    }),
    reconcileTime: new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Length of time per reconciliation per controller',
      labelNames: ['controller'],
      // controller-runtime's buckets: 5 ms to 60 s.
      buckets: [
        0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0,
        1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
      ],
      registers,
    }),
    maxConcurrentReconciles: new Gauge({
      name: 'controller_runtime_max_concurrent_reconciles',
      help: 'Maximum number of concurrent reconciles per controller',
      labelNames: ['controller'],
      registers,
    }),
    activeWorkers: new Gauge({
      name: 'controller_runtime_active_workers',
      help: 'Number of currently used workers per controller',
      labelNames: ['controller'],
      registers,
    }),
  };
  return metrics;
});

/**
 * A starting controller's series, its counters at zero, as controller-runtime's initMetrics starts
 * them: a counter first scraped at 1 hides that increase from rate() and increase(), so the first
 * error of a controller would never show on a dashboard or fire an alert.
 */
export function startControllerSeries(
  metrics: ControllerMetrics,
  controller: string,
  maxConcurrentReconciles: number,
): void {
  const labels = { controller };
  for (const result of RECONCILE_OUTCOMES) metrics.reconcileTotal.inc({ ...labels, result }, 0);
  metrics.reconcileErrors.inc(labels, 0);
  metrics.terminalReconcileErrors.inc(labels, 0);
  metrics.reconcilePanics.inc(labels, 0);
  metrics.maxConcurrentReconciles.set(labels, maxConcurrentReconciles);
  metrics.activeWorkers.set(labels, 0);
}
