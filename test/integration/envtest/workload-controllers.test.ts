import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AppsV1Api,
  BatchV1Api,
  CoreV1Api,
  DiscoveryV1Api,
  type V1CronJob,
  type V1Job,
  type V1JobSpec,
  type V1PodTemplateSpec,
} from '@kubernetes/client-node';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { UsageError } from '../../../src/errors.ts';
import { eventually } from '../../support/eventually.ts';

const NAMESPACE = 'default';

// kube-controller-manager runs its default set, as a cluster does: the workload controllers make
// Pods, kube-scheduler binds them to the fake Node, and kwok moves them through its stages, on to
// Succeeded for a Job's Pods.
describe('envtest with nodes runs the workload controllers of a cluster', () => {
  let env: Environment;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  let batch: BatchV1Api;
  before(async () => {
    env = await startEnvironment({ nodes: 1 });
    core = env.kubeConfig.makeApiClient(CoreV1Api);
    apps = env.kubeConfig.makeApiClient(AppsV1Api);
    batch = env.kubeConfig.makeApiClient(BatchV1Api);
    // A CronJob first runs at the next minute: made first, it waits while the other tests run.
    await batch.createNamespacedCronJob({ namespace: NAMESPACE, body: everyMinute('nightly') });
  });
  after(() => env.stop());

  it('runs a Job: its Pod is scheduled on a fake Node and succeeds, and the Job completes', async () => {
    await batch.createNamespacedJob({ namespace: NAMESPACE, body: job('once') });
    const done = await eventually(() => completed('once'), 'the Job to complete');
    assert.equal(done.status?.succeeded, 1);
    const pods = await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: 'job-name=once' });
    assert.equal(pods.items.length, 1);
    const [pod] = pods.items;
    assert.equal(pod?.status?.phase, 'Succeeded');
    assert.ok(env.nodeNames.includes(pod?.spec?.nodeName ?? ''), pod?.spec?.nodeName);
    assert.equal(pod?.status?.containerStatuses?.[0]?.state?.terminated?.reason, 'Completed');
  });

  it('deletes a finished Job once its ttlSecondsAfterFinished is over', async () => {
    await batch.createNamespacedJob({
      namespace: NAMESPACE,
      body: job('short-lived', { ttlSecondsAfterFinished: 0 }),
    });
    await eventually(async () => {
      const jobs = await batch.listNamespacedJob({ namespace: NAMESPACE });
      return jobs.items.some((j) => j.metadata?.name === 'short-lived') ? undefined : true;
    }, 'the finished Job to be deleted');
  });

  it('runs a StatefulSet: its Pods come up by ordinal and turn Ready, and its Service gets their addresses', async () => {
    const labels = { app: 'db' };
    await core.createNamespacedService({
      namespace: NAMESPACE,
      body: {
        metadata: { name: 'db' },
        spec: { clusterIP: 'None', selector: labels, ports: [{ port: 5432 }] },
      },
    });
    await apps.createNamespacedStatefulSet({
      namespace: NAMESPACE,
      body: {
        metadata: { name: 'db' },
        spec: {
          serviceName: 'db',
          replicas: 2,
          selector: { matchLabels: labels },
          template: template(labels),
        },
      },
    });
    await eventually(async () => {
      const set = await apps.readNamespacedStatefulSet({ namespace: NAMESPACE, name: 'db' });
      return set.status?.readyReplicas === 2 ? set : undefined;
    }, 'the StatefulSet to have 2 ready replicas');
    const pods = await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: 'app=db' });
    assert.deepEqual(pods.items.map((p) => p.metadata?.name).sort(), ['db-0', 'db-1']);

    // The EndpointSlice controller lists the ready Pods' addresses (kwok gives each Pod an IP).
    const discovery = env.kubeConfig.makeApiClient(DiscoveryV1Api);
    const addresses = await eventually(async () => {
      const slices = await discovery.listNamespacedEndpointSlice({
        namespace: NAMESPACE,
        labelSelector: 'kubernetes.io/service-name=db',
      });
      const ready = slices.items.flatMap((s) => (s.endpoints ?? []).filter((e) => e.conditions?.ready));
      return ready.length === 2 ? ready.flatMap((e) => e.addresses).sort() : undefined;
    }, 'the Service to have 2 ready endpoints');
    assert.deepEqual(addresses, pods.items.map((p) => p.status?.podIP ?? '').sort());
  });

  it('runs a DaemonSet: a Pod on each Node', async () => {
    const labels = { app: 'agent' };
    await apps.createNamespacedDaemonSet({
      namespace: NAMESPACE,
      body: {
        metadata: { name: 'agent' },
        spec: { selector: { matchLabels: labels }, template: template(labels) },
      },
    });
    const set = await eventually(async () => {
      const found = await apps.readNamespacedDaemonSet({ namespace: NAMESPACE, name: 'agent' });
      return found.status?.numberReady === env.nodeNames.length ? found : undefined;
    }, 'the DaemonSet to be ready on every Node');
    assert.equal(set.status?.desiredNumberScheduled, env.nodeNames.length);
  });

  it('runs a CronJob: it makes a Job at the next minute, which completes', async () => {
    const made = await eventually(
      async () => {
        const jobs = await batch.listNamespacedJob({ namespace: NAMESPACE });
        const owned = jobs.items.find((j) => j.metadata?.ownerReferences?.[0]?.name === 'nightly');
        return owned && isComplete(owned) ? owned : undefined;
      },
      'the CronJob to make a Job that completes',
      // Up to a minute for the schedule, then the Job's run.
      150_000,
    );
    assert.equal(made.metadata?.ownerReferences?.[0]?.kind, 'CronJob');
    const cronJob = await eventually(async () => {
      const found = await batch.readNamespacedCronJob({ namespace: NAMESPACE, name: 'nightly' });
      return found.status?.lastSuccessfulTime ? found : undefined;
    }, 'the CronJob to record its successful run');
    assert.ok(cronJob.status?.lastScheduleTime);
  });

  /** The Job `name` once it has the Complete condition, else undefined. */
  async function completed(name: string): Promise<V1Job | undefined> {
    const found = await batch.readNamespacedJob({ namespace: NAMESPACE, name });
    return isComplete(found) ? found : undefined;
  }
});

describe('envtest with a chosen list of kube-controller-manager controllers', () => {
  it('runs only the controllers listed', async () => {
    // Pods need their namespace's default ServiceAccount, which the serviceaccount controller makes.
    const controllers = ['job-controller', 'serviceaccount-controller'];
    await using env = await startEnvironment({ controllerManager: { controllers } });
    const batch = env.kubeConfig.makeApiClient(BatchV1Api);
    const apps = env.kubeConfig.makeApiClient(AppsV1Api);
    const core = env.kubeConfig.makeApiClient(CoreV1Api);
    const labels = { app: 'web' };
    await apps.createNamespacedDeployment({
      namespace: NAMESPACE,
      body: {
        metadata: { name: 'web' },
        spec: { selector: { matchLabels: labels }, template: template(labels) },
      },
    });
    await batch.createNamespacedJob({ namespace: NAMESPACE, body: job('listed') });

    // The job controller makes the Job's Pod (Pending: there is no node)...
    await eventually(async () => {
      const pods = await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: 'job-name=listed' });
      return pods.items.length === 1 ? true : undefined;
    }, "the Job's Pod");
    // ... while the Deployment, made before the Job, still has no ReplicaSet: no controller runs it.
    const replicaSets = await apps.listNamespacedReplicaSet({ namespace: NAMESPACE });
    assert.deepEqual(replicaSets.items, []);
  });

  it('refuses a malformed list, and fake nodes without the node lifecycle controller, before starting anything', async () => {
    await assert.rejects(
      startEnvironment({ controllerManager: { controllers: ['*', 'Job Controller'] } }),
      (err: unknown) =>
        err instanceof UsageError &&
        /"Job Controller" is not a kube-controller-manager controller list/.test(err.message),
    );
    await assert.rejects(
      startEnvironment({ nodes: 1, controllerManager: { controllers: ['*', '-node-lifecycle-controller'] } }),
      (err: unknown) =>
        err instanceof UsageError && /fake nodes need node-lifecycle-controller/.test(err.message),
    );
  });
});

/** A Pod template whose containers kwok runs (and, for a Job, completes). */
function template(labels: Record<string, string>, restartPolicy?: 'Never'): V1PodTemplateSpec {
  const containers = [{ name: 'main', image: 'busybox:1.37' }];
  return { metadata: { labels }, spec: restartPolicy ? { containers, restartPolicy } : { containers } };
}

function jobSpec(name: string): V1JobSpec {
  return { backoffLimit: 0, template: template({ task: name }, 'Never') };
}

function job(name: string, extra: Partial<V1JobSpec> = {}): V1Job {
  return { metadata: { name }, spec: { ...jobSpec(name), ...extra } };
}

function everyMinute(name: string): V1CronJob {
  return {
    metadata: { name },
    spec: { schedule: '* * * * *', successfulJobsHistoryLimit: 1, jobTemplate: { spec: jobSpec(name) } },
  };
}

function isComplete(job: V1Job): boolean {
  return job.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True') ?? false;
}
