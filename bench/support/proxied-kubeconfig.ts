import { KubeConfig } from '@kubernetes/client-node';

/** A proxy that ends TLS itself: its clients trust its CA and authenticate to it with nothing. */
export interface TerminatingProxy {
  readonly server: string;
  /** PEM. */
  readonly ca: string;
}

/**
 * `kubeConfig` with its current cluster's server replaced by a proxy's: a TCP proxy's `server`,
 * through which TLS and the client's credentials pass untouched, or a proxy that ends TLS (and
 * authenticates upstream as it will), whose CA the client then trusts, with no credentials.
 */
export function proxiedKubeConfig(kubeConfig: KubeConfig, proxy: string | TerminatingProxy): KubeConfig {
  const current = kubeConfig.getCurrentContext();
  const context = kubeConfig.getContextObject(current);
  const cluster = (c: KubeConfig['clusters'][number]): KubeConfig['clusters'][number] => {
    if (c.name !== context?.cluster) return c;
    if (typeof proxy === 'string') return { ...c, server: proxy };
    return {
      ...c,
      server: proxy.server,
      caData: Buffer.from(proxy.ca).toString('base64'),
      caFile: undefined,
    };
  };
  const user = (u: KubeConfig['users'][number]): KubeConfig['users'][number] =>
    u.name === context?.user && typeof proxy !== 'string' ? { name: u.name } : u;
  const copy = new KubeConfig();
  copy.loadFromOptions({
    clusters: kubeConfig.clusters.map(cluster),
    users: kubeConfig.users.map(user),
    contexts: kubeConfig.contexts,
    currentContext: current,
  });
  return copy;
}
