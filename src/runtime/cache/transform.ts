import type { KubeObject } from '../api/kube-object.ts';

/** Rewrites an object before the cache stores it, e.g. to drop fields no reconciler reads. */
export type Transform = (obj: KubeObject) => KubeObject;

/**
 * The default transform: managedFields are often half an object's size and reconcilers do not
 * read them (server-side apply computes them on the server). The metadata is built anew without
 * them rather than `delete`d from: a delete turns V8's compact object into a hash table, which
 * held about 450 bytes more per ConfigMap and made freezing it slower.
 */
export const stripManagedFields: Transform = (obj) => {
  const metadata = obj.metadata;
  if (!metadata?.managedFields) return obj;
  const fields = metadata as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const key in fields) if (key !== 'managedFields') kept[key] = fields[key];
  obj.metadata = kept;
  return obj;
};
