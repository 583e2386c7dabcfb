import { randomUUID } from 'node:crypto';
import type { V1ConfigMap } from '@kubernetes/client-node';
import type { Client } from '../../src/runtime/client/client.ts';

/** A ConfigMap of a typical size: a few labels and ~300 bytes of data. */
export function configMap(namespace: string, i: number): V1ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${i}`, namespace, labels: { app: 'bench', shard: String(i % 16) } },
    data: {
      'settings.yaml': `replicas: ${i % 5}\nimage: registry.example.org/app:${i}\n`,
      token: randomUUID(),
      mode: 'on',
    },
  };
}

/** Creates the namespace and `count` ConfigMaps in it, 32 at a time. */
export async function fillConfigMaps(client: Client, namespace: string, count: number): Promise<void> {
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await client.create(configMap(namespace, next++));
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}
