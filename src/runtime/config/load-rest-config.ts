import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { systemClock, type Clock } from '../clock/clock.ts';
import { inClusterConfig, SERVICE_ACCOUNT_DIR } from './in-cluster-config.ts';
import { KubeconfigError, readKubeconfigFile } from './kubeconfig-file.ts';
import { mergeKubeconfigs } from './kubeconfig-merge.ts';
import type { RestConfig } from './rest-config.ts';
import { restConfigFromKubeconfig } from './rest-config-from-kubeconfig.ts';

/** What {@link loadRestConfig} takes. */
export interface LoadRestConfigOptions {
  /** A kubeconfig file (the `--kubeconfig` flag): only it is read, and it must exist. */
  readonly kubeconfig?: string;
  /** The context to use instead of the current-context. */
  readonly context?: string;
  /** Times token-file re-reads and exec credential expiry. Default: the system clock. */
  readonly clock?: Clock;
  /** KUBECONFIG, HOME and KUBERNETES_SERVICE_HOST/_PORT are read from here. Default: process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Default: where the kubelet mounts it. */
  readonly serviceAccountDir?: string;
}

/**
 * Finds the API server as controller-runtime's GetConfig does: the `kubeconfig` option, else the
 * files of $KUBECONFIG merged as kubectl merges them, else the pod's service account when running
 * in a cluster, else ~/.kube/config. Throws a KubeconfigError that says what to set when none is
 * there or one is malformed.
 *
 * @example
 * ```ts
 * const mgr = await Manager.create({ restConfig: loadRestConfig({ kubeconfig: flags.kubeconfig }) });
 * ```
 */
export function loadRestConfig(options: LoadRestConfigOptions = {}): RestConfig {
  const clock = options.clock ?? systemClock;
  const env = options.env ?? process.env;
  const fromFiles = (files: readonly string[]): RestConfig =>
    restConfigFromKubeconfig(mergeKubeconfigs(files.map(readKubeconfigFile)), clock, options.context);

  if (options.kubeconfig) return fromFiles([options.kubeconfig]);
  const listed = (env['KUBECONFIG'] ?? '').split(delimiter).filter((f) => f !== '');
  if (listed.length > 0) {
    // As kubectl: files of KUBECONFIG that do not exist are skipped.
    const present = listed.filter((f) => existsSync(f));
    if (present.length > 0) return fromFiles(present);
  }
  // As controller-runtime: in a pod, the service account, whatever context was asked for.
  const inCluster = inClusterConfig(clock, env, options.serviceAccountDir ?? SERVICE_ACCOUNT_DIR);
  if (inCluster) return inCluster;
  if (listed.length > 0) {
    throw new KubeconfigError(
      `none of the files in KUBECONFIG exists (${listed.join(delimiter)}), and this is not a pod`,
    );
  }
  const home = join(env['HOME'] ?? homedir(), '.kube', 'config');
  if (existsSync(home)) return fromFiles([home]);
  throw new KubeconfigError(
    'no kubeconfig: pass --kubeconfig, set KUBECONFIG, or create ~/.kube/config (in a pod, the service account is used)',
  );
}
