import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { BucketRateLimiter } from '../../../src/runtime/workqueue/bucket-rate-limiter.ts';
import { createPrometheusWorkqueueMetricsProvider } from '../../../src/runtime/workqueue/prometheus-workqueue-metrics-provider.ts';
import { Workqueue } from '../../../src/runtime/workqueue/workqueue.ts';
import { advance, flush } from './flush.ts';
import { keyOf } from './key-of.ts';

const HOUR = 3_600_000;

test('a delayed add fires after its delay of monotonic time, whatever the wall clock does', async () => {
  const clock = new FakeClock(0);
  const queue = new Workqueue({ clock });
  queue.addAfter('back', 1000);
  clock.stepWall(-HOUR);
  await advance(clock, 999);
  assert.equal(queue.len, 0, 'a step back does not stretch the delay...');
  await advance(clock, 1);
  assert.equal(queue.len, 1, '...nor does it hold the key back');
  assert.equal(keyOf(await queue.get()), 'back');

  queue.addAfter('forward', 1000);
  clock.stepWall(2 * HOUR);
  await flush();
  assert.equal(queue.len, 0, 'a step forward does not cut the delay short');
  await advance(clock, 1000);
  assert.equal(queue.len, 1);
  assert.equal(keyOf(await queue.get()), 'forward');
  queue.shutDown();
});

test('the bucket limiter neither stalls after a wall step back nor bursts after a step forward', () => {
  const clock = new FakeClock(0);
  const limiter = new BucketRateLimiter({ qps: 10, burst: 2, clock });
  assert.deepEqual([limiter.when(), limiter.when()], [0, 0]);
  clock.stepWall(-HOUR);
  clock.advance(100);
  assert.equal(limiter.when(), 0, 'a token refilled in 100 ms, as without the step');
  clock.stepWall(2 * HOUR);
  assert.equal(limiter.when(), 100, 'an hour of wall time refilled nothing');
});

test('queue and work durations are monotonic time, not wall time', async () => {
  const registry = new Registry();
  const clock = new FakeClock(0);
  const queue = new Workqueue({
    name: 'steps',
    clock,
    metricsProvider: createPrometheusWorkqueueMetricsProvider(registry),
  });
  queue.add('a');
  clock.stepWall(-HOUR);
  clock.advance(2000);
  keyOf(await queue.get());
  clock.stepWall(HOUR);
  clock.advance(500);
  queue.done('a');
  const metrics = await registry.getMetricsAsJSON();
  const sum = (name: string): number | undefined =>
    metrics
      .find((m) => m.name === name)
      ?.values.find((v) => (v as { metricName?: string }).metricName === `${name}_sum`)?.value;
  assert.equal(sum('workqueue_queue_duration_seconds'), 2);
  assert.equal(sum('workqueue_work_duration_seconds'), 0.5);
});
