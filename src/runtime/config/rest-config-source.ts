import type { KubeConfig } from '@kubernetes/client-node';
import { systemClock } from '../clock/clock.ts';
import { parseKubeconfig } from './kubeconfig-file.ts';
import type { RestConfig } from './rest-config.ts';
import { restConfigFromKubeconfig } from './rest-config-from-kubeconfig.ts';

/**
 * What the runtime connects with: its own RestConfig, or a client-node KubeConfig an author
 * already has (tests, tools), read through its exported kubeconfig so that both take one path.
 */
export type RestConfigSource = RestConfig | KubeConfig;

const converted = new WeakMap<KubeConfig, RestConfig>();

/** The RestConfig of a source; a KubeConfig gives the same one each time (exec caches are shared). */
export function restConfigOf(source: RestConfigSource): RestConfig {
  if (!isKubeConfig(source)) return source;
  let config = converted.get(source);
  if (!config) {
    const kubeconfig = parseKubeconfig(source.exportConfig(), 'a client-node KubeConfig', process.cwd());
    config = restConfigFromKubeconfig(kubeconfig, systemClock);
    converted.set(source, config);
  }
  return config;
}

function isKubeConfig(source: RestConfigSource): source is KubeConfig {
  return typeof (source as Partial<KubeConfig>).exportConfig === 'function';
}
