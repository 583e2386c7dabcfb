import { homedir } from 'node:os';
import { join } from 'node:path';
import type { KubernetesVersion } from './versions.ts';

/**
 * tsoperator's cache folder, outside any repository: `$TSOPERATOR_CACHE`, else
 * `$XDG_CACHE_HOME/tsoperator`, else `~/.cache/tsoperator`.
 */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env['TSOPERATOR_CACHE']) return env['TSOPERATOR_CACHE'];
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'tsoperator');
}

/** `linux-amd64`, in the names Go and the envtest archives use. */
export function platform(): { os: string; arch: string } {
  const arch = { x64: 'amd64', arm64: 'arm64', ppc64: 'ppc64le', s390x: 's390x' }[process.arch as string];
  return { os: process.platform === 'win32' ? 'windows' : process.platform, arch: arch ?? process.arch };
}

/** The cached folder for one version's binaries: `<cache>/envtest/k8s/1.37.2-linux-amd64`. */
export function assetsDir(version: KubernetesVersion, root: string = cacheRoot()): string {
  const { os, arch } = platform();
  return join(root, 'envtest', 'k8s', `${version.text}-${os}-${arch}`);
}
