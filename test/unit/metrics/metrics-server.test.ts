import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectDefaultMetrics, Counter, Registry } from 'prom-client';
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

test("the process metrics are prom-client's default metrics: the same names, types and help", async () => {
  const ours = new Registry();
  registerProcessMetrics(ours);
  const theirs = new Registry();
  collectDefaultMetrics({ register: theirs });
  const described = async (registry: Registry): Promise<string[]> =>
    (await registry.getMetricsAsJSON()).map((m) => `${m.name} ${m.type} ${m.help}`).sort();
  assert.deepEqual(await described(ours), await described(theirs));
});

test('process_cpu_seconds_total is the CPU time of the process since it started, user plus system', async () => {
  const registry = new Registry();
  registerProcessMetrics(registry);
  const seconds = ({ user, system }: NodeJS.CpuUsage): number => (user + system) / 1e6;
  const before = seconds(process.cpuUsage());
  const values = new Map(
    (await registry.getMetricsAsJSON())
      .filter((m) => m.name.startsWith('process_cpu_'))
      .map((m) => [m.name, m.values[0]?.value ?? Number.NaN]),
  );
  const after = seconds(process.cpuUsage());
  const total = values.get('process_cpu_seconds_total') ?? Number.NaN;
  assert.ok(before <= total && total <= after, `${before} <= ${total} <= ${after}`);
  const sum =
    (values.get('process_cpu_user_seconds_total') ?? 0) +
    (values.get('process_cpu_system_seconds_total') ?? 0);
  assert.ok(Math.abs(sum - total) < 1e-6, `${sum} = ${total}`);
});
