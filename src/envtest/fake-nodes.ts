import { CoreV1Api, type KubeConfig, type V1Node } from '@kubernetes/client-node';
import { KWOK_NODE_ANNOTATION, KWOK_NODE_ANNOTATION_VALUE } from './kwok.ts';
import type { ManagedProcess } from './process.ts';
import { waitUntilReady } from './wait.ts';

/** `kwok-node-0`, `kwok-node-1`, ...: the names kwok's documentation uses. */
export function fakeNodeName(index: number): string {
  return `kwok-node-${index}`;
}

/**
 * A Node for kwok to manage, labelled as a kubelet labels its own Node. It has no taint: this
 * control plane has no real node a Pod could land on by mistake, and a taint would make every
 * Pod under test need a toleration. kwok fills in its status (capacity, addresses, Ready).
 */
export function fakeNode(name: string): V1Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      annotations: {
        [KWOK_NODE_ANNOTATION]: KWOK_NODE_ANNOTATION_VALUE,
        'node.alpha.kubernetes.io/ttl': '0',
      },
      labels: {
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/role': 'agent',
        'node-role.kubernetes.io/agent': '',
        type: 'kwok',
      },
    },
  };
}

/**
 * Creates the fake Nodes `names` and waits until each is schedulable: kwok reports it Ready and the
 * node lifecycle controller has lifted the not-ready taint the API server gives a new Node.
 * `signal` aborts the wait.
 */
export async function createFakeNodes(
  kubeConfig: KubeConfig,
  names: readonly string[],
  kwok: ManagedProcess,
  signal?: AbortSignal,
): Promise<void> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  for (const name of names) await core.createNode({ body: fakeNode(name) });
  await waitUntilReady(
    kwok,
    async () => {
      const nodes = await core.listNode();
      return names.every((name) =>
        nodes.items.some((node) => node.metadata?.name === name && isSchedulable(node)),
      );
    },
    60_000,
    signal,
  );
}

function isSchedulable(node: V1Node): boolean {
  const ready = node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  const notReadyTaint = node.spec?.taints?.some((t) => t.key === 'node.kubernetes.io/not-ready') ?? false;
  return ready && !notReadyTaint;
}
