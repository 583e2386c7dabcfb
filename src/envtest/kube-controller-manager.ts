import type { ManagedProcess, Reaper } from './process.ts';
import type { ClientTls } from './probe.ts';
import { startKubeComponent } from './kube-component.ts';

/**
 * Controllers started by default: `*`, kube-controller-manager's own default set, what a cluster
 * runs and an operator meets there (garbage collector, namespaces, Deployments, ReplicaSets,
 * StatefulSets, DaemonSets, Jobs, CronJobs, TTL after finished, disruption budgets, endpoints and
 * EndpointSlices, service accounts, quotas, ...). None needs a cloud provider: since 1.31 those run
 * in cloud-controller-manager, and the ones that need flags this control plane does not give (CSR
 * signing, node IPAM) skip themselves. Measured against the six controllers it replaced, the start
 * takes no longer and the idle process a tenth of a CPU second more per 20 s.
 */
export const DEFAULT_CONTROLLERS = ['*'] as const;

/**
 * Added when the environment has nodes, whatever the list says (`*` has them; turning one off is
 * refused): the node lifecycle controller lifts the not-ready taint a new Node is created with once
 * it reports Ready (and taints a Node whose lease stops being renewed); the Pod garbage collector
 * deletes the Pods of a Node that is gone, so that their ReplicaSet replaces them on the nodes
 * left; the service account controller makes each namespace's `default` ServiceAccount, without
 * which the API server admits no Pod (a Job of `--controllers job-controller` would make none).
 */
export const NODE_CONTROLLERS = [
  'node-lifecycle-controller',
  'pod-garbage-collector-controller',
  'serviceaccount-controller',
] as const;

export interface KubeControllerManagerOptions {
  binDir: string;
  kubeconfigPath: string;
  serviceAccountKeyFile: string;
  caFile: string;
  tls: ClientTls;
  /** `--controllers` entries: `*`, `name`, `-name`. Default: DEFAULT_CONTROLLERS. */
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
