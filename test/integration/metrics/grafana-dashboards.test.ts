import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Counter } from 'prom-client';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { customMetricsDashboard, parseCustomMetrics } from '../../../src/grafana/custom-metrics.ts';
import { renderDashboard, type DashboardSpec } from '../../../src/grafana/dashboard.ts';
import { RESOURCES_DASHBOARD } from '../../../src/grafana/resources-dashboard.ts';
import { RUNTIME_DASHBOARD } from '../../../src/grafana/runtime-dashboard.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { Manager } from '../../../src/runtime/manager/manager.ts';
import { metricsRegistry } from '../../../src/runtime/metrics/registry.ts';
import { done } from '../../../src/runtime/reconcile/result.ts';
import { eventually } from '../../support/eventually.ts';

/*
 * The Grafana dashboards query only metrics the runtime exports: the names are scraped from a
 * running manager's /metrics (with a controller, its work queue and API requests), not listed by
 * hand.
 */

/** A metric of the test's own, registered as a reconciler author registers theirs. */
const CUSTOM_METRIC = 'grafana_test_widgets_total';

let env: Environment;
let exported: ReadonlySet<string>;

/** The series names a scrape can hold: a histogram's `_bucket`, `_sum` and `_count`. */
function seriesNames(scrape: string): Set<string> {
  const names = new Set<string>();
  for (const [, name = '', type] of scrape.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
  }
  return names;
}

/** PromQL keywords that look like names. */
const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'offset',
  'bool',
]);

/** The metric names a PromQL expression selects: names that are not functions, keywords or labels. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring)\s*\([^)]*\)/g, ' ');
  return [...bare.matchAll(/([A-Za-z_:][A-Za-z0-9_:]*)(\s*\()?/g)]
    .filter(([, name = '', call]) => call === undefined && !KEYWORDS.has(name))
    .map(([, name = '']) => name);
}

interface DashboardJson {
  readonly panels: readonly { readonly targets?: readonly { readonly expr: string }[] }[];
  readonly templating: { readonly list: readonly { readonly definition: string }[] };
}

/** Every query of a dashboard as its JSON file holds it: the panels' and the variables'. */
function queries(spec: DashboardSpec): string[] {
  const json = JSON.parse(renderDashboard(spec)) as DashboardJson;
  const panels = json.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
  // label_values(<series>, <label>): only the series is a metric.
  const variables = json.templating.list.map((variable) =>
    variable.definition.replace(/^label_values\((.*), *\w+\)$/, '$1'),
  );
  return [...panels, ...variables];
}

before(async () => {
  env = await startEnvironment();
  new Counter({ name: CUSTOM_METRIC, help: 'widgets seen', registers: [metricsRegistry] }).inc();
  const mgr = await Manager.create({
    kubeConfig: env.kubeConfig,
    metricsBindAddress: '127.0.0.1:0',
    metricsSecure: false,
    healthProbeBindAddress: '0',
    handleSignals: false,
  });
  let reconciled = false;
  mgr.controller(ConfigMapKind).complete({
    reconcile: async () => {
      reconciled = true;
      return done();
    },
  });
  const stop = new AbortController();
  const running = mgr.start(stop.signal);
  try {
    const url = await eventually(async () => mgr.metricsUrl, 'the metrics server to listen');
    await eventually(async () => reconciled || undefined, 'a ConfigMap to be reconciled');
    exported = seriesNames(await (await fetch(`${url}/metrics`)).text());
  } finally {
    stop.abort();
    await running;
  }
});

after(async () => {
  await env.stop();
});

describe('the Grafana dashboards', () => {
  it('read the metric names from a scrape of the runtime', () => {
    for (const name of [
      'controller_runtime_reconcile_total',
      'workqueue_depth',
      'rest_client_requests_total',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
    ])
      assert.ok(exported.has(name), `${name} among ${[...exported].join(', ')}`);
    // The check below sees a name that is not exported.
    const typo = 'histogram_quantile(0.9, sum by (name, le) (rate(workqueue_depht_bucket{job="$job"}[5m])))';
    assert.deepEqual(metricNames(typo), ['workqueue_depht_bucket']);
    assert.equal(exported.has('workqueue_depht_bucket'), false);
  });

  for (const spec of [RUNTIME_DASHBOARD, RESOURCES_DASHBOARD]) {
    it(`${spec.title} queries only metrics the runtime exports`, () => {
      const names = queries(spec).flatMap(metricNames);
      assert.ok(names.length > 0);
      const unknown = names.filter((name) => !exported.has(name));
      assert.deepEqual(unknown, [], `not exported: ${unknown.join(', ')}`);
    });
  }

  it('covers reconciliation, errors, durations, the work queue, retries, REST requests, CPU and memory', () => {
    const names = new Set(
      [...queries(RUNTIME_DASHBOARD), ...queries(RESOURCES_DASHBOARD)].flatMap(metricNames),
    );
    for (const name of [
      'controller_runtime_reconcile_total',
      'controller_runtime_reconcile_errors_total',
      'controller_runtime_reconcile_time_seconds_bucket',
      'workqueue_depth',
      'workqueue_queue_duration_seconds_bucket',
      'workqueue_work_duration_seconds_bucket',
      'workqueue_retries_total',
      'rest_client_requests_total',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
    ])
      assert.ok(names.has(name), name);
  });

  it('make the custom-metrics dashboard query the metrics its config lists', () => {
    const config = `customMetrics:\n  - metric: ${CUSTOM_METRIC}\n    type: counter\n  - metric: no_type_given\n`;
    const spec = customMetricsDashboard(parseCustomMetrics(config));
    assert.equal(spec.panels.length, 1);
    const names = queries(spec).flatMap(metricNames);
    assert.ok(names.includes(CUSTOM_METRIC));
    assert.deepEqual(
      names.filter((name) => !exported.has(name)),
      [],
    );
  });
});
