import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Counter, Registry } from 'prom-client';
import { registerProcessMetrics, startMetricsServer } from '../../../src/runtime/metrics/metrics-server.ts';

test('/metrics serves the registered metrics and the Node process metrics', async () => {
  const registry = new Registry();
  const reconciles = new Counter({
    name: 'test_reconciles_total',
    help: 'Reconciles.',
    registers: [registry],
  });
  reconciles.inc(3);
  const server = await startMetricsServer({ port: 0, host: '127.0.0.1', registry, secure: false });
  try {
    const res = await fetch(`${server.url}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await res.text();
    assert.match(text, /^test_reconciles_total 3$/m);
    assert.match(text, /^# TYPE process_cpu_user_seconds_total counter$/m);
    assert.match(text, /^# TYPE nodejs_eventloop_lag_seconds gauge$/m);
    assert.equal((await fetch(`${server.url}/other`)).status, 404);
  } finally {
    await server.close();
  }
});

test('a secure metrics server (the default) refuses to start without a way to review tokens', async () => {
  await assert.rejects(
    startMetricsServer({ port: 0, host: '127.0.0.1', registry: new Registry() }),
    /needs `auth` to review tokens with/,
  );
});

test('process metrics are registered once however often a server starts', () => {
  const registry = new Registry();
  registerProcessMetrics(registry);
  registerProcessMetrics(registry);
  assert.equal(
    registry.getMetricsAsArray().filter((m) => m.name === 'process_cpu_user_seconds_total').length,
    1,
  );
});
