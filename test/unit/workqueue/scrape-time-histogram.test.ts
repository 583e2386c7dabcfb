import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Histogram, Registry } from 'prom-client';
import { ScrapeTimeHistogram } from '../../../src/runtime/workqueue/scrape-time-histogram.ts';

const BUCKETS = [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1000];
const CONFIG = {
  name: 'test_duration_seconds',
  help: 'How long a test takes.',
  labelNames: ['name', 'controller'] as const,
  buckets: BUCKETS,
};
/** On the bounds, between them, below the first and above the last. */
const OBSERVATIONS = [0, 1e-8, 5e-8, 1e-3, 0.0011, 0.5, 1, 10, 999, 1000, 1000.5, 12_345];

/** The same observations in a prom-client `Histogram` and in a `ScrapeTimeHistogram`, each in its registry. */
function pair(observations: { name: string; values: number[] }[]): { expected: Registry; actual: Registry } {
  const expected = new Registry();
  const actual = new Registry();
  const reference = new Histogram({ ...CONFIG, labelNames: [...CONFIG.labelNames], registers: [expected] });
  const histogram = new ScrapeTimeHistogram({ ...CONFIG, registers: [actual] });
  for (const { name, values } of observations) {
    const labels = { name, controller: name };
    const series = histogram.series(labels);
    for (const value of values) {
      reference.observe(labels, value);
      series.observe(value);
    }
  }
  return { expected, actual };
}

test('the exposition and the JSON are those of a prom-client Histogram with the same observations', async () => {
  const { expected, actual } = pair([
    { name: 'webapp', values: OBSERVATIONS },
    { name: 'other', values: [0.25, 3] },
  ]);
  assert.equal(await actual.metrics(), await expected.metrics());
  assert.deepEqual(await actual.getMetricsAsJSON(), await expected.getMetricsAsJSON());
});

test('default labels of the registry are printed where a Histogram prints them', async () => {
  const { expected, actual } = pair([{ name: 'webapp', values: [0.5] }]);
  for (const registry of [expected, actual]) registry.setDefaultLabels({ pod: 'manager-0' });
  assert.equal(await actual.metrics(), await expected.metrics());
  assert.match(
    await actual.metrics(),
    /_bucket\{le="1",pod="manager-0",name="webapp",controller="webapp"\} 1\n/,
  );
  assert.deepEqual(await actual.getMetricsAsJSON(), await expected.getMetricsAsJSON());
});

test('a series is exported once it has an observation, and resetMetrics empties it', async () => {
  const { expected, actual } = pair([
    { name: 'idle', values: [] },
    { name: 'webapp', values: [2] },
  ]);
  assert.doesNotMatch(await actual.metrics(), /idle/);
  assert.equal(await actual.metrics(), await expected.metrics());
  for (const registry of [expected, actual]) registry.resetMetrics();
  assert.equal(await actual.metrics(), await expected.metrics());
  assert.doesNotMatch(await actual.metrics(), /webapp/);
});

test('the series of the same labels is one, whoever asks for it', async () => {
  const registry = new Registry();
  const histogram = new ScrapeTimeHistogram({ ...CONFIG, registers: [registry] });
  histogram.series({ name: 'webapp', controller: 'webapp' }).observe(1);
  histogram.series({ name: 'webapp', controller: 'webapp' }).observe(2);
  const [metric] = await registry.getMetricsAsJSON();
  const count = metric?.values.find(
    (v) => (v as { metricName?: string }).metricName === 'test_duration_seconds_count',
  );
  assert.equal(count?.value, 2);
});
