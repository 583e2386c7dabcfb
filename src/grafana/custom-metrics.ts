import { load } from 'js-yaml';
import { TsoperatorError } from '../errors.ts';
import { JOB_SELECTOR, type DashboardSpec } from './dashboard.ts';

/** The user's list of their own metrics, read on every `edit --plugins grafana`. */
export const CUSTOM_METRICS_CONFIG_PATH = 'grafana/custom-metrics/config.yaml';

/** The dashboard made from that list, when it lists any metric. */
export const CUSTOM_METRICS_DASHBOARD_PATH = 'grafana/custom-metrics/custom-metrics-dashboard.json';

/** The config as first written: an empty list, and how to fill it in. */
export const CUSTOM_METRICS_CONFIG = `---
customMetrics:
#  - metric: # Raw custom metric (required)
#    type:   # Metric type: counter/gauge/histogram (required)
#    expr:   # PromQL for the metric (optional)
#    unit:   # Unit of measurement, examples: s,none,bytes,percent,etc. (optional)
#
# Register your metrics in the runtime's metricsRegistry (prom-client), then list them here and
# run \`tsoperator edit --plugins grafana\` again to write custom-metrics-dashboard.json.
#
# Example:
# ---
# customMetrics:
#   - metric: webapp_deployments_created_total
#     type: counter
#   - metric: webapp_reconcile_phase_seconds
#     type: histogram
#     unit: s
`;

/** One metric of the config, its query and unit filled in. */
export interface CustomMetric {
  readonly metric: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  readonly expr: string;
  readonly unit: string;
}

const TYPES: ReadonlySet<string> = new Set(['counter', 'gauge', 'histogram']);

/**
 * The metrics of the config, as Kubebuilder's plugin reads them: entries without a metric or a
 * known type (and without a query of their own) are skipped; a missing query is made for the
 * type, a missing unit guessed from the name.
 */
export function parseCustomMetrics(text: string): CustomMetric[] {
  let document: unknown;
  try {
    document = load(text);
  } catch (err) {
    throw new TsoperatorError(`${CUSTOM_METRICS_CONFIG_PATH} is not valid YAML: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const entries = (document as { customMetrics?: unknown } | null)?.customMetrics;
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry: unknown): CustomMetric[] => {
    const item = (entry ?? {}) as Record<string, unknown>;
    const metric = typeof item['metric'] === 'string' ? item['metric'] : '';
    const type = typeof item['type'] === 'string' ? item['type'].toLowerCase() : '';
    const expr = typeof item['expr'] === 'string' ? item['expr'] : '';
    if (expr === '' && (metric === '' || !TYPES.has(type))) return [];
    const known = (TYPES.has(type) ? type : 'gauge') as CustomMetric['type'];
    return [
      {
        metric,
        type: known,
        expr: expr === '' ? defaultQuery(metric, known) : expr,
        unit: typeof item['unit'] === 'string' && item['unit'] !== '' ? item['unit'] : guessUnit(metric),
      },
    ];
  });
}

function defaultQuery(metric: string, type: CustomMetric['type']): string {
  if (type === 'counter') return `sum by (instance, pod) (rate(${metric}{${JOB_SELECTOR}}[5m]))`;
  if (type === 'histogram') {
    const buckets = metric.endsWith('_bucket') ? metric : `${metric}_bucket`;
    return `histogram_quantile(0.90, sum by (instance, le) (rate(${buckets}{${JOB_SELECTOR}}[5m])))`;
  }
  return `${metric}{${JOB_SELECTOR}}`;
}

function guessUnit(metric: string): string {
  const name = metric.toLowerCase();
  if (name.includes('second') || name.includes('duration')) return 's';
  if (name.includes('byte')) return 'bytes';
  if (name.includes('ratio')) return 'percent';
  return 'none';
}

/** The custom-metrics dashboard: one panel per metric. */
export function customMetricsDashboard(metrics: readonly CustomMetric[]): DashboardSpec {
  return {
    title: 'Custom-Metrics',
    uid: 'custom-metrics',
    panels: metrics.map((metric) => ({
      kind: 'timeseries',
      title: `${metric.metric} (${metric.type})`,
      description: `The ${metric.type} ${metric.metric}, from ${CUSTOM_METRICS_CONFIG_PATH}`,
      unit: metric.unit,
      queries: [{ expr: metric.expr, legendFormat: '{{instance}} {{pod}}' }],
    })),
  };
}
