import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../clock/clock.ts';
import type { RestConfig } from './rest-config.ts';
import { tokenFileCredentials } from './token-file-credentials.ts';

/** Where the kubelet mounts a pod's service account token, CA and namespace. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * The RestConfig of the pod's service account (client-go's rest.InClusterConfig), or undefined
 * outside a pod: KUBERNETES_SERVICE_HOST and _PORT name the API server, the mounted token is
 * re-read as the kubelet rotates it, and the mounted CA and namespace are used.
 */
export function inClusterConfig(
  clock: Clock,
  env: NodeJS.ProcessEnv = process.env,
  serviceAccountDir: string = SERVICE_ACCOUNT_DIR,
): RestConfig | undefined {
  const host = env['KUBERNETES_SERVICE_HOST'];
  const port = env['KUBERNETES_SERVICE_PORT'];
  const tokenFile = join(serviceAccountDir, 'token');
  if (!host || !port || !existsSync(tokenFile)) return undefined;
  const ca = readIfPresent(join(serviceAccountDir, 'ca.crt'));
  return {
    server: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    namespace: inClusterNamespace(serviceAccountDir) ?? 'default',
    ...(ca ? { ca } : {}),
    credentials: tokenFileCredentials(tokenFile, clock),
    source: 'in-cluster',
  };
}

/** The pod's namespace, as the kubelet mounts it; undefined outside a pod. */
export function inClusterNamespace(serviceAccountDir: string = SERVICE_ACCOUNT_DIR): string | undefined {
  return readIfPresent(join(serviceAccountDir, 'namespace'))?.trim() || undefined;
}

function readIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
