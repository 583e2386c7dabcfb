import type { ManagedProcess, Reaper } from './process.ts';
import type { ClientTls } from './probe.ts';
import { startKubeComponent } from './kube-component.ts';

/** Controllers started by default: enough for owner-reference GC and Deployments making Pods. */
export const DEFAULT_CONTROLLERS = [
  'garbage-collector-controller',
  'namespace-controller',
  'deployment-controller',
  'replicaset-controller',
  'serviceaccount-controller',
  'serviceaccount-token-controller',
] as const;

/**
 * Added when the environment has nodes: the node lifecycle controller lifts the not-ready taint a
 * new Node is created with once it reports Ready (and taints a Node whose lease stops being
 * renewed); the Pod garbage collector deletes the Pods of a Node that is gone, so that their
 * ReplicaSet replaces them on the nodes left.
 */
export const NODE_CONTROLLERS = ['node-lifecycle-controller', 'pod-garbage-collector-controller'] as const;

export interface KubeControllerManagerOptions {
  binDir: string;
  kubeconfigPath: string;
  serviceAccountKeyFile: string;
  caFile: string;
  tls: ClientTls;
  controllers?: readonly string[];
  extraArgs?: readonly string[];
  reaper?: Reaper;
  signal?: AbortSignal;
}

/** Starts kube-controller-manager against the test API server and waits for its /healthz. */
export function startKubeControllerManager(options: KubeControllerManagerOptions): Promise<ManagedProcess> {
  return startKubeComponent('kube-controller-manager', {
    binDir: options.binDir,
    kubeconfigPath: options.kubeconfigPath,
    tls: options.tls,
    reaper: options.reaper,
    signal: options.signal,
    args: [
      `--controllers=${(options.controllers ?? DEFAULT_CONTROLLERS).join(',')}`,
      `--service-account-private-key-file=${options.serviceAccountKeyFile}`,
      `--root-ca-file=${options.caFile}`,
      '--use-service-account-credentials=false',
      // Make garbage collection and rollouts quick enough for tests.
      '--concurrent-gc-syncs=5',
      ...(options.extraArgs ?? []),
    ],
  });
}
