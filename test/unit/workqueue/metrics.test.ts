import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { metricsRegistry } from '../../../src/runtime/metrics/registry.ts';
import { LOW_PRIORITY } from '../../../src/runtime/workqueue/add-options.ts';
import {
  createPrometheusWorkqueueMetricsProvider,
  defaultWorkqueueMetricsProvider,
  workqueueMetricsProviderFor,
} from '../../../src/runtime/workqueue/prometheus-workqueue-metrics-provider.ts';
import { Workqueue } from '../../../src/runtime/workqueue/workqueue.ts';
import { flush } from './flush.ts';

type Labels = Record<string, string | number>;

/** The value of one series (`_sum` and `_count` of histograms too), as a scrape would read it. */
async function sample(registry: Registry, series: string, labels: Labels): Promise<number | undefined> {
  const metrics = await registry.getMetricsAsJSON();
  const metric = metrics.find((m) => series === m.name || series.startsWith(`${m.name}_`));
  assert.ok(metric, `${series} is registered`);
  const wanted = Object.entries(labels);
  const found = metric.values.find(
    (v) =>
      ((v as { metricName?: string }).metricName ?? metric.name) === series &&
      wanted.every(([k, value]) => v.labels[k] === value) &&
      Object.keys(v.labels).length === wanted.length,
  );
  return found?.value;
}

const WEBAPP = { name: 'webapp', controller: 'webapp' };

function setup(): { registry: Registry; clock: FakeClock; queue: Workqueue } {
  const registry = new Registry();
  const clock = new FakeClock(0);
  const queue = new Workqueue({
    name: 'webapp',
    clock,
    metricsProvider: createPrometheusWorkqueueMetricsProvider(registry),
  });
  return { registry, clock, queue };
}

test('the metrics carry controller-runtime names and help, with name and controller labels', async () => {
  const { registry } = setup();
  const names = (await registry.getMetricsAsJSON()).map((m) => m.name).sort();
  assert.deepEqual(names, [
    'workqueue_adds_total',
    'workqueue_depth',
    'workqueue_longest_running_processor_seconds',
    'workqueue_queue_duration_seconds',
    'workqueue_retries_total',
    'workqueue_unfinished_work_seconds',
    'workqueue_work_duration_seconds',
  ]);
  const text = await registry.metrics();
  assert.match(text, /# HELP workqueue_depth Current depth of workqueue by workqueue and priority/);
  assert.match(text, /# HELP workqueue_adds_total Total number of adds handled by workqueue/);
});

test('adds and depth count distinct pending keys, depth per priority', async () => {
  const { registry, queue } = setup();
  queue.add('a');
  queue.add('a');
  queue.add('b', { priority: LOW_PRIORITY });
  assert.equal(await sample(registry, 'workqueue_adds_total', WEBAPP), 2);
  assert.equal(await sample(registry, 'workqueue_depth', { ...WEBAPP, priority: '0' }), 1);
  assert.equal(await sample(registry, 'workqueue_depth', { ...WEBAPP, priority: '-100' }), 1);
  queue.add('b', { priority: 0 });
  assert.equal(await sample(registry, 'workqueue_depth', { ...WEBAPP, priority: '0' }), 2);
  assert.equal(await sample(registry, 'workqueue_depth', { ...WEBAPP, priority: '-100' }), 0);
  await queue.get();
  assert.equal(await sample(registry, 'workqueue_depth', { ...WEBAPP, priority: '0' }), 1);
});

test('queue duration, work duration and in-flight work are measured on the clock', async () => {
  const { registry, clock, queue } = setup();
  queue.add('a');
  clock.advance(2000);
  await queue.get();
  assert.equal(await sample(registry, 'workqueue_queue_duration_seconds_sum', WEBAPP), 2);
  clock.advance(500);
  assert.equal(await sample(registry, 'workqueue_unfinished_work_seconds', WEBAPP), 0.5);
  assert.equal(await sample(registry, 'workqueue_longest_running_processor_seconds', WEBAPP), 0.5);
  queue.add('b');
  clock.advance(250);
  await queue.get();
  clock.advance(250);
  assert.equal(await sample(registry, 'workqueue_unfinished_work_seconds', WEBAPP), 1.25);
  assert.equal(await sample(registry, 'workqueue_longest_running_processor_seconds', WEBAPP), 1);
  queue.done('a');
  queue.done('b');
  assert.equal(await sample(registry, 'workqueue_work_duration_seconds_sum', WEBAPP), 1.25);
  assert.equal(await sample(registry, 'workqueue_work_duration_seconds_count', WEBAPP), 2);
  assert.equal(await sample(registry, 'workqueue_unfinished_work_seconds', WEBAPP), 0);
});

/** The exposition lines of one histogram series: cumulative bucket counts, then sum and count. */
function histogramLines(name: string, cumulative: number[], sum: number): string[] {
  const bounds = [
    '1e-8',
    '1e-7',
    '0.000001',
    '0.00001',
    '0.0001',
    '0.001',
    '0.01',
    '0.1',
    '1',
    '10',
    '100',
    '1000',
  ];
  const labels = 'name="webapp",controller="webapp"';
  const count = cumulative[cumulative.length - 1] as number;
  return [
    ...bounds.map((le, i) => `${name}_bucket{le="${le}",${labels}} ${cumulative[i] as number}`),
    `${name}_bucket{le="+Inf",${labels}} ${count}`,
    `${name}_sum{${labels}} ${sum}`,
    `${name}_count{${labels}} ${count}`,
  ];
}

test('after a known sequence the exposition reads, byte for byte, controller-runtime names with the right values', async () => {
  const { registry, clock, queue } = setup();
  queue.add('a');
  queue.add('b', { priority: LOW_PRIORITY });
  queue.add('a');
  clock.advance(2000);
  await queue.get();
  clock.advance(500);
  queue.done('a');
  await queue.get();
  clock.advance(250);
  queue.addRateLimited('b');
  const labels = 'name="webapp",controller="webapp"';
  const help = (name: string, type: string, text: string): string[] => [
    `# HELP ${name} ${text}`,
    `# TYPE ${name} ${type}`,
  ];
  const expected = [
    ...help('workqueue_depth', 'gauge', 'Current depth of workqueue by workqueue and priority'),
    `workqueue_depth{${labels},priority="0"} 0`,
    `workqueue_depth{${labels},priority="-100"} 0`,
    '',
    ...help('workqueue_adds_total', 'counter', 'Total number of adds handled by workqueue'),
    `workqueue_adds_total{${labels}} 2`,
    '',
    ...help(
      'workqueue_queue_duration_seconds',
      'histogram',
      'How long in seconds an item stays in workqueue before being requested',
    ),
    // `a` waited 2 s, `b` 2.5 s.
    ...histogramLines('workqueue_queue_duration_seconds', [0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2], 4.5),
    '',
    ...help(
      'workqueue_work_duration_seconds',
      'histogram',
      'How long in seconds processing an item from workqueue takes.',
    ),
    ...histogramLines('workqueue_work_duration_seconds', [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1], 0.5),
    '',
    ...help(
      'workqueue_unfinished_work_seconds',
      'gauge',
      "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. " +
        'Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at ' +
        'which this increases.',
    ),
    `workqueue_unfinished_work_seconds{${labels}} 0.25`,
    '',
    ...help(
      'workqueue_longest_running_processor_seconds',
      'gauge',
      'How many seconds has the longest running processor for workqueue been running.',
    ),
    `workqueue_longest_running_processor_seconds{${labels}} 0.25`,
    '',
    ...help('workqueue_retries_total', 'counter', 'Total number of retries handled by workqueue'),
    `workqueue_retries_total{${labels}} 1`,
  ];
  assert.equal(await registry.metrics(), `${expected.join('\n')}\n`);
  queue.shutDown();
});

test('every delayed or rate-limited add counts as a retry', async () => {
  const { registry, clock, queue } = setup();
  queue.addAfter('a', 10);
  queue.addRateLimited('b');
  queue.addAfter('c', 0);
  assert.equal(await sample(registry, 'workqueue_retries_total', WEBAPP), 3);
  clock.advance(10);
  await flush();
  assert.equal(await sample(registry, 'workqueue_adds_total', WEBAPP), 3);
  queue.shutDown();
});

test('a shut-down queue stops reporting in-flight work', async () => {
  const { registry, queue } = setup();
  queue.add('a');
  await queue.get();
  queue.shutDown();
  assert.equal(await sample(registry, 'workqueue_unfinished_work_seconds', WEBAPP), undefined);
});

test('named queues without a provider share the metrics registered once in metricsRegistry', async () => {
  const first = new Workqueue({ name: 'first' });
  const second = new Workqueue({ name: 'second' });
  first.add('a');
  second.add('a');
  second.add('b');
  assert.equal(
    await sample(metricsRegistry, 'workqueue_adds_total', { name: 'first', controller: 'first' }),
    1,
  );
  assert.equal(
    await sample(metricsRegistry, 'workqueue_adds_total', { name: 'second', controller: 'second' }),
    2,
  );
  first.shutDown();
  second.shutDown();
});

test('an unnamed queue reports nothing', async () => {
  const queue = new Workqueue();
  queue.add('unnamed');
  const adds = (await metricsRegistry.getMetricsAsJSON()).find((m) => m.name === 'workqueue_adds_total');
  assert.ok(adds === undefined || adds.values.every((v) => v.labels['name'] !== ''));
});

test('one provider per registry, however often it is asked for', () => {
  const registry = new Registry();
  assert.equal(workqueueMetricsProviderFor(registry), workqueueMetricsProviderFor(registry));
  assert.equal(workqueueMetricsProviderFor(metricsRegistry), defaultWorkqueueMetricsProvider());
});
