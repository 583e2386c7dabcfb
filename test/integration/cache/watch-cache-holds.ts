import type { KubernetesObject } from '@kubernetes/client-node';
import type { Kind } from '../../../src/runtime/client/kind.ts';
import { resourcePath, withQuery } from '../../../src/runtime/client/resource-path.ts';
import type { Transport } from '../../../src/runtime/client/transport.ts';

/**
 * Whether the API server's watch cache holds every object named, as a list at resourceVersion 0
 * (what an informer lists first) reads it. The watch cache trails etcd by a moment, so a test
 * that wrote objects and expects an informer's first list to hold them waits for this first.
 */
export async function watchCacheHolds(
  transport: Transport,
  kind: Kind,
  namespace: string,
  names: readonly string[],
): Promise<boolean> {
  const path = withQuery(resourcePath(kind, namespace), { resourceVersion: '0' });
  const list = await transport.request<{ items?: KubernetesObject[] }>({ method: 'GET', path });
  const held = new Set((list.items ?? []).map((o) => o.metadata?.name));
  return names.every((name) => held.has(name));
}
