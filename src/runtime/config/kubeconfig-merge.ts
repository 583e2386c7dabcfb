import type { Kubeconfig } from './kubeconfig-file.ts';

/**
 * Merges kubeconfig files as kubectl merges the files of KUBECONFIG: the first file to define a
 * cluster, user or context by a name wins, and so does the first to set current-context.
 */
export function mergeKubeconfigs(configs: readonly Kubeconfig[]): Kubeconfig {
  const first = <T>(pick: (c: Kubeconfig) => ReadonlyMap<string, T>): Map<string, T> => {
    const out = new Map<string, T>();
    for (const config of configs) {
      for (const [name, value] of pick(config)) if (!out.has(name)) out.set(name, value);
    }
    return out;
  };
  return {
    clusters: first((c) => c.clusters),
    users: first((c) => c.users),
    contexts: first((c) => c.contexts),
    currentContext: configs.find((c) => c.currentContext)?.currentContext,
    files: configs.flatMap((c) => c.files),
  };
}
