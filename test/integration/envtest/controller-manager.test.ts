import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { eventually } from '../../support/eventually.ts';

describe('envtest with kube-controller-manager', () => {
  let env: Environment;
  before(async () => {
    env = await startEnvironment({ controllerManager: true });
  });
  after(() => env.stop());

  it('runs the deployment controller: a Deployment gets a ReplicaSet', async () => {
    const apps = env.kubeConfig.makeApiClient(AppsV1Api);
    const labels = { app: 'web' };
    await apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'web' },
        spec: {
          selector: { matchLabels: labels },
          template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
        },
      },
    });
    const replicaSet = await eventually(async () => {
      const list = await apps.listNamespacedReplicaSet({ namespace: 'default' });
      return list.items.find((rs) => rs.metadata?.ownerReferences?.[0]?.name === 'web');
    }, 'a ReplicaSet owned by the Deployment');
    assert.equal(replicaSet.spec?.replicas, 1);
  });

  it('runs the garbage collector: deleting an owner deletes its dependents', async () => {
    const core = env.kubeConfig.makeApiClient(CoreV1Api);
    const owner = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'owner' } },
    });
    await core.createNamespacedConfigMap({
      namespace: 'default',
      body: {
        metadata: {
          name: 'dependent',
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata?.uid ?? '' },
          ],
        },
      },
    });
    await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'owner' });
    await eventually(async () => {
      const list = await core.listNamespacedConfigMap({ namespace: 'default' });
      return list.items.some((cm) => cm.metadata?.name === 'dependent') ? undefined : true;
    }, 'the dependent ConfigMap to be collected');
  });
});
