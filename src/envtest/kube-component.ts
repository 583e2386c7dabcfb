import { join } from 'node:path';
import { ManagedProcess, type Reaper } from './process.ts';
import type { ClientTls } from './probe.ts';
import { httpsStatus } from './probe.ts';
import { freePort } from './ports.ts';
import { waitUntilReady } from './wait.ts';

export interface KubeComponentOptions {
  binDir: string;
  kubeconfigPath: string;
  tls: ClientTls;
  /** Flags of this component, after the shared ones. */
  args: readonly string[];
  /** Watches the process from its spawn. */
  reaper?: Reaper;
  /** Aborts the wait for /healthz and stops the process. */
  signal?: AbortSignal;
}

/**
 * Starts kube-controller-manager or kube-scheduler against the test API server, alone (no leader
 * election), serving on a free loopback port, and waits for its /healthz.
 */
export async function startKubeComponent(
  name: 'kube-controller-manager' | 'kube-scheduler',
  options: KubeComponentOptions,
): Promise<ManagedProcess> {
  const port = await freePort();
  const args = [
    `--kubeconfig=${options.kubeconfigPath}`,
    `--authentication-kubeconfig=${options.kubeconfigPath}`,
    `--authorization-kubeconfig=${options.kubeconfigPath}`,
    '--leader-elect=false',
    `--bind-address=127.0.0.1`,
    `--secure-port=${port}`,
    ...options.args,
  ];
  const process = new ManagedProcess(name, join(options.binDir, name), args, {
    reaper: options.reaper,
  });
  await waitUntilReady(
    process,
    async () =>
      (await httpsStatus(`https://127.0.0.1:${port}/healthz`, {
        ...options.tls,
        rejectUnauthorized: false,
      })) === 200,
    60_000,
    options.signal,
  );
  return process;
}
