import assert from 'node:assert/strict';
import { it } from 'node:test';
import { startEnvironment } from '../../../src/envtest/index.ts';
import { newClient } from '../../../src/runtime/client/client.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { metricsRegistry } from '../../../src/runtime/metrics/registry.ts';

async function requestCount(labels: Record<string, string>): Promise<number> {
  const metric = (await metricsRegistry.getMetricsAsJSON()).find(
    (m) => m.name === 'rest_client_requests_total',
  );
  const values = (metric?.values ?? []) as { labels: Record<string, string | number>; value: number }[];
  return values
    .filter((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))
    .reduce((sum, v) => sum + v.value, 0);
}

it('counts every answer of the API server in rest_client_requests_total, by code and method', async () => {
  await using env = await startEnvironment();
  const client = newClient({ kubeConfig: env.kubeConfig });
  const host = new URL(env.server).host;
  await client.create({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'counted', namespace: 'default' },
  });
  for (let i = 0; i < 3; i++) await client.get(ConfigMapKind, { namespace: 'default', name: 'counted' });
  assert.equal(await client.get(ConfigMapKind, { namespace: 'default', name: 'missing' }), undefined);
  assert.equal(await requestCount({ host, method: 'POST', code: '201' }), 1);
  assert.equal(await requestCount({ host, method: 'GET', code: '200' }), 3);
  assert.equal(await requestCount({ host, method: 'GET', code: '404' }), 1);
});
