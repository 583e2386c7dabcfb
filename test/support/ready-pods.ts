import { CoreV1Api, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Plays the kubelet for the Pods of `namespace` until `signal` aborts: each new Pod is reported
 * Running and Ready, so that Deployments count it in readyReplicas. Without it a test control plane
 * (no kubelet) leaves every Pod Pending.
 */
export async function reportPodsReady(
  kubeConfig: KubeConfig,
  namespace: string,
  signal: AbortSignal,
): Promise<void> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  while (!signal.aborted) {
    const pods = await core.listNamespacedPod({ namespace });
    for (const pod of pods.items.filter((p) => !isReady(p) && !p.metadata?.deletionTimestamp)) {
      // A Pod changed or gone since the list is tried again at the next round, or no longer matters.
      await core
        .replaceNamespacedPodStatus({
          name: pod.metadata?.name ?? '',
          namespace,
          body: { ...pod, status: readyStatus(pod) },
        })
        .catch(() => undefined);
    }
    await sleep(200, undefined, { signal }).catch(() => undefined);
  }
}

function isReady(pod: V1Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

function readyStatus(pod: V1Pod): V1Pod['status'] {
  const now = new Date();
  return {
    phase: 'Running',
    startTime: now,
    conditions: ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map((type) => ({
      type,
      status: 'True',
      lastTransitionTime: now,
    })),
    containerStatuses: (pod.spec?.containers ?? []).map((c) => ({
      name: c.name,
      image: c.image ?? '',
      imageID: '',
      ready: true,
      restartCount: 0,
      started: true,
      state: { running: { startedAt: now } },
    })),
  };
}
