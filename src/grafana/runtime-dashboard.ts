import { JOB_SELECTOR, type DashboardSpec, type PanelQuery, type PanelSpec } from './dashboard.ts';

/** Where Kubebuilder's plugin writes the controller-runtime dashboard. */
export const RUNTIME_DASHBOARD_PATH = 'grafana/controller-runtime-metrics.json';

const PERCENTILES = [0.5, 0.9, 0.99] as const;

/** P50, P90 and P99 of a histogram, per `by` label. */
function percentiles(histogram: string, by: string): PanelQuery[] {
  return PERCENTILES.map((quantile) => ({
    expr: `histogram_quantile(${quantile.toFixed(2)}, sum by (${by}, le) (rate(${histogram}_bucket{${JOB_SELECTOR}}[5m])))`,
    legendFormat: `P${Math.round(quantile * 100)} {{${by}}}`,
  }));
}

function rate(counter: string, by: string): string {
  return `sum by (${by}) (rate(${counter}{${JOB_SELECTOR}}[5m]))`;
}

const PANELS: readonly PanelSpec[] = [
  { kind: 'row', title: 'Reconciliation' },
  {
    kind: 'timeseries',
    title: 'Reconciliations per controller',
    description: 'Per-second rate of reconciliations over the last 5 minutes, by controller and result',
    unit: 'ops',
    queries: [
      {
        expr: rate('controller_runtime_reconcile_total', 'controller, result'),
        legendFormat: '{{controller}} {{result}}',
      },
    ],
  },
  {
    kind: 'timeseries',
    title: 'Reconciliation errors per controller',
    description: 'Per-second rate of reconciliations that returned an error, over the last 5 minutes',
    unit: 'ops',
    queries: [
      {
        expr: rate('controller_runtime_reconcile_errors_total', 'controller'),
        legendFormat: '{{controller}}',
      },
    ],
  },
  {
    kind: 'timeseries',
    title: 'Reconciliation time (P50, P90, P99)',
    description: 'How long one reconciliation takes, by controller',
    unit: 's',
    queries: percentiles('controller_runtime_reconcile_time_seconds', 'controller'),
  },
  {
    kind: 'timeseries',
    title: 'Workers in use',
    description: 'Reconciliations running now, and the most a controller runs at once',
    unit: 'none',
    queries: [
      { expr: `controller_runtime_active_workers{${JOB_SELECTOR}}`, legendFormat: 'active {{controller}}' },
      {
        expr: `controller_runtime_max_concurrent_reconciles{${JOB_SELECTOR}}`,
        legendFormat: 'max {{controller}}',
      },
    ],
  },
  { kind: 'row', title: 'Work queue' },
  {
    kind: 'timeseries',
    title: 'Work queue depth',
    description: 'Items waiting in each work queue',
    unit: 'none',
    queries: [{ expr: `sum by (name) (workqueue_depth{${JOB_SELECTOR}})`, legendFormat: '{{name}}' }],
  },
  {
    kind: 'timeseries',
    title: 'Work queue adds',
    description: 'Per-second rate of items added to each work queue',
    unit: 'ops',
    queries: [{ expr: rate('workqueue_adds_total', 'name'), legendFormat: '{{name}}' }],
  },
  {
    kind: 'timeseries',
    title: 'Time in queue before processing (P50, P90, P99)',
    description: 'How long an item waits in the work queue before a worker takes it',
    unit: 's',
    queries: percentiles('workqueue_queue_duration_seconds', 'name'),
  },
  {
    kind: 'timeseries',
    title: 'Processing time (P50, P90, P99)',
    description: 'How long a worker takes over one item of the work queue',
    unit: 's',
    queries: percentiles('workqueue_work_duration_seconds', 'name'),
  },
  {
    kind: 'timeseries',
    title: 'Work queue retries',
    description: 'Per-second rate of items put back in the queue to be retried (errors and requeues)',
    unit: 'ops',
    queries: [{ expr: rate('workqueue_retries_total', 'name'), legendFormat: '{{name}}' }],
  },
  {
    kind: 'timeseries',
    title: 'Work in progress',
    description: 'Seconds of work in progress not yet observed, and the longest-running item',
    unit: 's',
    queries: [
      { expr: `workqueue_unfinished_work_seconds{${JOB_SELECTOR}}`, legendFormat: 'unfinished {{name}}' },
      {
        expr: `workqueue_longest_running_processor_seconds{${JOB_SELECTOR}}`,
        legendFormat: 'longest {{name}}',
      },
    ],
  },
  { kind: 'row', title: 'API server requests' },
  {
    kind: 'timeseries',
    title: 'REST client requests',
    description: 'Per-second rate of requests the manager sends to the API server, by method and status code',
    unit: 'reqps',
    queries: [
      { expr: rate('rest_client_requests_total', 'method, code'), legendFormat: '{{method}} {{code}}' },
    ],
    width: 24,
  },
];

/** grafana/controller-runtime-metrics.json: reconciliation, work queue and API server requests. */
export const RUNTIME_DASHBOARD: DashboardSpec = {
  title: 'Controller-Runtime-Metrics',
  uid: 'controller-runtime-metrics',
  panels: PANELS,
};
