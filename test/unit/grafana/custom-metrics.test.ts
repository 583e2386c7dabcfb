import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CUSTOM_METRICS_CONFIG, parseCustomMetrics } from '../../../src/grafana/custom-metrics.ts';

describe('parseCustomMetrics', () => {
  it('lists nothing from the config as first written', () => {
    assert.deepEqual(parseCustomMetrics(CUSTOM_METRICS_CONFIG), []);
  });

  it("fills in each type's query and a unit from the name, and skips entries it cannot chart", () => {
    const config = [
      'customMetrics:',
      '  - metric: jobs_total',
      '    type: counter',
      '  - metric: phase_duration_seconds',
      '    type: histogram',
      '  - metric: cache_bytes',
      '    type: gauge',
      '  - metric: no_type',
      '  - metric: custom_ratio',
      '    type: summary',
      '  - expr: sum(up)',
      '    unit: none',
    ].join('\n');
    const metrics = parseCustomMetrics(config);
    assert.deepEqual(
      metrics.map((m) => [m.metric, m.type, m.unit]),
      [
        ['jobs_total', 'counter', 'none'],
        ['phase_duration_seconds', 'histogram', 's'],
        ['cache_bytes', 'gauge', 'bytes'],
        ['', 'gauge', 'none'],
      ],
    );
    assert.match(
      metrics[0]?.expr ?? '',
      /^sum by \(instance, pod\) \(rate\(jobs_total\{job="\$job", namespace="\$namespace"\}\[5m\]\)\)$/,
    );
    assert.match(metrics[1]?.expr ?? '', /histogram_quantile\(0\.90, .*phase_duration_seconds_bucket\{/);
    assert.equal(metrics[2]?.expr, 'cache_bytes{job="$job", namespace="$namespace"}');
    assert.equal(metrics[3]?.expr, 'sum(up)');
  });
});
