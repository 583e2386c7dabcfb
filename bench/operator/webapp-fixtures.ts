import type { Client } from '../../src/runtime/client/client.ts';
import { WebAppKind, type WebApp } from './ts/webapp.ts';

/** The `i`th WebApp of a run: replicas 1 to 3, so Deployments differ a little. */
export function webApp(namespace: string, i: number): WebApp {
  return {
    apiVersion: WebAppKind.apiVersion,
    kind: WebAppKind.kind,
    metadata: { name: `webapp-${i}`, namespace },
    spec: { image: 'nginx:1.27', replicas: 1 + (i % 3), port: 80 },
  };
}

/** Creates the namespace and `count` WebApps in it, 32 at a time. */
export async function createWebApps(client: Client, namespace: string, count: number): Promise<void> {
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await client.create(webApp(namespace, next++));
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}
