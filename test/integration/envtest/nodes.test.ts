import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AppsV1Api,
  CoordinationV1Api,
  CoreV1Api,
  type V1Deployment,
  type V1Pod,
} from '@kubernetes/client-node';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { isAlive } from '../../../src/envtest/process-alive.ts';
import { eventually } from '../../support/eventually.ts';

// kube-scheduler binds Pods to the fake Nodes and kwok, playing their kubelets, moves the Pods
// through its default stages; kube-controller-manager runs the Deployments.
describe('envtest with nodes', () => {
  let env: Environment;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  before(async () => {
    env = await startEnvironment({ nodes: 2 });
    core = env.kubeConfig.makeApiClient(CoreV1Api);
    apps = env.kubeConfig.makeApiClient(AppsV1Api);
  });
  after(() => env.stop());

  it('starts with the fake Nodes Ready and untainted, each renewing its lease', async () => {
    assert.deepEqual(env.nodeNames, ['kwok-node-0', 'kwok-node-1']);
    const nodes = await core.listNode();
    for (const node of nodes.items) {
      const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
      assert.equal(ready?.status, 'True', node.metadata?.name);
      assert.ok(node.status?.allocatable?.['pods'], 'kwok gives the Node a capacity');
      assert.deepEqual(node.spec?.taints ?? [], []);
    }
    const leases = env.kubeConfig.makeApiClient(CoordinationV1Api);
    for (const node of nodes.items) {
      const name = node.metadata?.name ?? '';
      const lease = await leases.readNamespacedLease({ namespace: 'kube-node-lease', name });
      assert.equal(lease.metadata?.ownerReferences?.[0]?.uid, node.metadata?.uid, `the lease of ${name}`);
      const renewed = lease.spec?.renewTime;
      await eventually(async () => {
        const again = await leases.readNamespacedLease({ namespace: 'kube-node-lease', name });
        return String(again.spec?.renewTime) !== String(renewed) ? true : undefined;
      }, `kwok to renew the lease of ${name}`);
    }
  });

  it('schedules a Pod onto a fake Node, where it runs and turns Ready', async () => {
    await core.createNamespacedPod({
      namespace: 'default',
      body: { metadata: { name: 'solo' }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
    });
    const pod = await eventually(async () => {
      const found = await core.readNamespacedPod({ namespace: 'default', name: 'solo' });
      return found.status?.phase === 'Running' && isReady(found) ? found : undefined;
    }, 'the Pod to be Running and Ready');
    assert.ok(env.nodeNames.includes(pod.spec?.nodeName ?? ''), pod.spec?.nodeName);
    assert.ok(pod.status?.podIP, 'kwok gives the Pod an IP');
    assert.equal(pod.status?.containerStatuses?.[0]?.ready, true);
  });

  it('makes a Deployment Available, and a scale-up reaches the new count', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web', 2) });
    await eventually(() => availableWith('web', 2), 'the Deployment to be Available with 2 ready replicas');

    await apps.replaceNamespacedDeploymentScale({
      namespace: 'default',
      name: 'web',
      body: { metadata: { namespace: 'default', name: 'web' }, spec: { replicas: 4 } },
    });

    const scaled = await eventually(
      () => availableWith('web', 4),
      'the Deployment to reach 4 ready replicas',
    );
    assert.equal(scaled.status?.updatedReplicas, 4);
  });

  it('evicts the Pods of a deleted Node, and the Deployment replaces them on the Node left', async () => {
    const before = await deploymentPods('web');
    const gone = before[0]?.spec?.nodeName ?? '';
    const left = env.nodeNames.find((name) => name !== gone) ?? '';
    const evicted = before.filter((p) => p.spec?.nodeName === gone).map((p) => p.metadata?.name);

    await core.deleteNode({ name: gone });

    // The Pod garbage collector deletes the Pods bound to a Node that no longer exists, after a
    // quarantine of 40 s in case the Node comes back; the ReplicaSet makes new ones.
    const after = await eventually(
      async () => {
        const pods = await deploymentPods('web');
        const settled = pods.length === 4 && pods.every((p) => p.spec?.nodeName === left && isReady(p));
        return settled ? pods : undefined;
      },
      `the Pods on ${gone} to be replaced on ${left}`,
      180_000,
    );
    assert.deepEqual(
      after.filter((p) => evicted.includes(p.metadata?.name)),
      [],
      'none of the evicted Pods is left',
    );
    await eventually(
      () => availableWith('web', 4),
      'the Deployment to be Available with 4 ready replicas again',
    );
  });

  it('stops kube-scheduler and kwok with the rest of the control plane', async () => {
    const pids = env.pids;
    assert.equal(pids.length, 5, 'etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok');

    await env.stop();

    assert.deepEqual(
      pids.filter((pid) => isAlive(pid)),
      [],
    );
  });

  /** The Deployment once it is Available with `count` ready replicas, else undefined. */
  async function availableWith(name: string, count: number): Promise<V1Deployment | undefined> {
    const found = await apps.readNamespacedDeployment({ namespace: 'default', name });
    const available = found.status?.conditions?.find((c) => c.type === 'Available');
    return available?.status === 'True' && found.status?.readyReplicas === count ? found : undefined;
  }

  /** The Pods of a Deployment made by `deployment(name, ...)`, not being deleted. */
  async function deploymentPods(name: string): Promise<V1Pod[]> {
    const pods = await core.listNamespacedPod({ namespace: 'default', labelSelector: `app=${name}` });
    return pods.items.filter((p) => !p.metadata?.deletionTimestamp);
  }
});

function deployment(name: string, replicas: number): V1Deployment {
  const labels = { app: name };
  return {
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
    },
  };
}

function isReady(pod: V1Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}
