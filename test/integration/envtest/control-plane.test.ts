import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { CoreV1Api, CustomObjectsApi, Watch, type KubernetesObject } from '@kubernetes/client-node';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { isAlive } from '../../../src/envtest/process-alive.ts';

const fixtures = join(import.meta.dirname, 'testdata');

describe('envtest control plane', () => {
  let env: Environment;

  before(async () => {
    env = await startEnvironment({ crdPaths: [join(fixtures, 'widgets.yaml')] });
  });
  after(() => env.stop());

  it('serves an installed CRD, Established, whose objects can be created', async () => {
    const objects = env.kubeConfig.makeApiClient(CustomObjectsApi);
    const created = (await objects.createNamespacedCustomObject({
      group: 'test.tsoperator.dev',
      version: 'v1',
      namespace: 'default',
      plural: 'widgets',
      body: {
        apiVersion: 'test.tsoperator.dev/v1',
        kind: 'Widget',
        metadata: { name: 'w1' },
        spec: { size: 3, port: 'http' },
      },
    })) as KubernetesObject & { spec: { size: number; port: string } };
    assert.equal(created.metadata?.name, 'w1');
    assert.equal(created.spec.size, 3);
    assert.equal(created.spec.port, 'http');
  });

  it('delivers a created ConfigMap to a watch through client-node', async () => {
    const core = env.kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'watched' } } });
    let resolveSeen: (type: string) => void = () => undefined;
    const seen = new Promise<string>((resolve) => (resolveSeen = resolve));
    // watch() resolves once the server has answered, so the create below cannot be missed.
    const watch = await new Watch(env.kubeConfig).watch(
      '/api/v1/namespaces/watched/configmaps',
      {},
      (type: string, obj: KubernetesObject) => {
        if (obj.metadata?.name === 'hello') resolveSeen(type);
      },
      () => undefined,
    );
    try {
      await core.createNamespacedConfigMap({
        namespace: 'watched',
        body: { metadata: { name: 'hello' }, data: { a: 'b' } },
      });
      assert.equal(await seen, 'ADDED');
    } finally {
      watch.abort();
    }
  });

  it('enforces RBAC: a user without bindings is refused, the admin is not', async () => {
    const alice = await env.addUser('alice');
    const asAlice = alice.kubeConfig.makeApiClient(CoreV1Api);
    await assert.rejects(
      asAlice.listNamespacedPod({ namespace: 'default' }),
      (err: { code?: number }) => err.code === 403,
    );
    const pods = await env.kubeConfig.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: 'default' });
    assert.deepEqual(pods.items, []);
    assert.ok(existsSync(alice.kubeconfigPath));
  });
});

describe('two control planes at once', () => {
  it('run side by side, independent, and leave no process or folder after stop', async () => {
    const [a, b] = await Promise.all([startEnvironment(), startEnvironment()]);
    try {
      assert.notEqual(a.server, b.server);
      await a.kubeConfig
        .makeApiClient(CoreV1Api)
        .createNamespace({ body: { metadata: { name: 'only-in-a' } } });
      const inB = await b.kubeConfig.makeApiClient(CoreV1Api).listNamespace();
      assert.ok(!inB.items.some((ns) => ns.metadata?.name === 'only-in-a'));
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    for (const pid of [...a.pids, ...b.pids])
      assert.equal(isAlive(pid), false, `process ${pid} still running`);
    assert.equal(existsSync(a.dir), false);
    assert.equal(existsSync(b.dir), false);
  });
});
