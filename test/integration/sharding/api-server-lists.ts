import type { Environment } from '../../../src/envtest/index.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';

/**
 * The API server's LIST requests so far (`apiserver_request_total`, summed over codes and scopes)
 * of each of `resources`, and its CPU seconds (`apiserverCpuS`).
 */
export async function apiServerLists(
  env: Environment,
  resources: readonly string[],
): Promise<Record<string, number>> {
  const body = await transportFor(env.kubeConfig).stream(
    '/metrics',
    AbortSignal.timeout(10_000),
    'text/plain',
  );
  let text = '';
  for await (const chunk of body) text += String(chunk);
  const out: Record<string, number> = { apiserverCpuS: 0 };
  for (const resource of resources) out[resource] = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('process_cpu_seconds_total ')) out['apiserverCpuS'] = Number(line.split(' ')[1]);
    if (!line.startsWith('apiserver_request_total{') || !line.includes('verb="LIST"')) continue;
    const resource = /resource="([^"]*)"/.exec(line)?.[1] ?? '';
    if (resources.includes(resource))
      out[resource] = (out[resource] ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return out;
}
