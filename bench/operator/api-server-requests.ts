import type { KubeConfig } from '@kubernetes/client-node';
import { request, type RequestOptions } from 'node:https';

/** Requests the API server served, by `VERB resource[/subresource] code`. */
export type RequestCounts = ReadonlyMap<string, number>;

const RESOURCES = new Set(['webapps', 'deployments', 'services']);
const LINE = /^apiserver_request_total\{([^}]*)\} (\d+)/gm;
const LABEL = /(\w+)="([^"]*)"/g;

/**
 * The API server's own count of the requests it served for the benchmark's resources, from its
 * /metrics: what a contender asked of it, whatever its client does (conflicts and retries included).
 */
export async function apiServerRequests(kubeConfig: KubeConfig): Promise<RequestCounts> {
  const counts = new Map<string, number>();
  for (const [, labelText, value] of (await metricsText(kubeConfig)).matchAll(LINE)) {
    const labels: Record<string, string | undefined> = Object.fromEntries(
      [...(labelText ?? '').matchAll(LABEL)].map(([, k = '', v = '']): [string, string] => [k, v]),
    );
    if (!RESOURCES.has(labels['resource'] ?? '')) continue;
    const resource = labels['subresource']
      ? `${labels['resource']}/${labels['subresource']}`
      : labels['resource'];
    const key = `${labels['verb']} ${resource} ${labels['code']}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(value));
  }
  return counts;
}

/** What was served between two readings, without the zeros. */
export function requestsBetween(before: RequestCounts, after: RequestCounts): RequestCounts {
  const served = new Map<string, number>();
  for (const [key, n] of after)
    if (n - (before.get(key) ?? 0) > 0) served.set(key, n - (before.get(key) ?? 0));
  return served;
}

async function metricsText(kubeConfig: KubeConfig): Promise<string> {
  const server = new URL(kubeConfig.getCurrentCluster()?.server ?? '');
  const options: RequestOptions = {
    hostname: server.hostname,
    port: server.port,
    path: '/metrics',
    headers: { accept: 'text/plain' },
  };
  await kubeConfig.applyToHTTPSOptions(options);
  return new Promise((resolve, reject) => {
    const req = request(options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(text));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
