import { join } from 'node:path';
import { ManagedProcess } from './process.ts';
import type { ClientTls } from './probe.ts';
import { httpsStatus } from './probe.ts';
import { freePort } from './ports.ts';
import { waitUntilReady } from './wait.ts';

/** Controllers started by default: enough for owner-reference GC and Deployments making Pods. */
export const DEFAULT_CONTROLLERS = [
  'garbage-collector-controller',
  'namespace-controller',
  'deployment-controller',
  'replicaset-controller',
  'serviceaccount-controller',
  'serviceaccount-token-controller',
] as const;

export interface KubeControllerManagerOptions {
  binDir: string;
  kubeconfigPath: string;
  serviceAccountKeyFile: string;
  caFile: string;
  tls: ClientTls;
  controllers?: readonly string[];
  extraArgs?: readonly string[];
}

/** Starts kube-controller-manager against the test API server and waits for its /healthz. */
export async function startKubeControllerManager(
  options: KubeControllerManagerOptions,
): Promise<ManagedProcess> {
  const port = await freePort();
  const args = [
    `--kubeconfig=${options.kubeconfigPath}`,
    `--authentication-kubeconfig=${options.kubeconfigPath}`,
    `--authorization-kubeconfig=${options.kubeconfigPath}`,
    `--controllers=${(options.controllers ?? DEFAULT_CONTROLLERS).join(',')}`,
    `--service-account-private-key-file=${options.serviceAccountKeyFile}`,
    `--root-ca-file=${options.caFile}`,
    '--leader-elect=false',
    '--use-service-account-credentials=false',
    `--bind-address=127.0.0.1`,
    `--secure-port=${port}`,
    // Make garbage collection and rollouts quick enough for tests.
    '--concurrent-gc-syncs=5',
    ...(options.extraArgs ?? []),
  ];
  const process = new ManagedProcess(
    'kube-controller-manager',
    join(options.binDir, 'kube-controller-manager'),
    args,
  );
  await waitUntilReady(
    process,
    async () =>
      (await httpsStatus(`https://127.0.0.1:${port}/healthz`, {
        ...options.tls,
        rejectUnauthorized: false,
      })) === 200,
    60_000,
  );
  return process;
}
