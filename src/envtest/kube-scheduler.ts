import type { ManagedProcess, Reaper } from './process.ts';
import type { ClientTls } from './probe.ts';
import { startKubeComponent } from './kube-component.ts';

export interface KubeSchedulerOptions {
  binDir: string;
  kubeconfigPath: string;
  tls: ClientTls;
  reaper?: Reaper;
  signal?: AbortSignal;
}

/** Starts kube-scheduler, which binds the test API server's Pods to its nodes, and waits for its /healthz. */
export function startKubeScheduler(options: KubeSchedulerOptions): Promise<ManagedProcess> {
  return startKubeComponent('kube-scheduler', { ...options, args: [] });
}
