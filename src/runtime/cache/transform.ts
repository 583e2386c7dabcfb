import type { KubernetesObject } from '@kubernetes/client-node';

/** Rewrites an object before the cache stores it, e.g. to drop fields no reconciler reads. */
export type Transform = (obj: KubernetesObject) => KubernetesObject;

/**
 * The default transform: managedFields are often half an object's size and reconcilers do not
 * read them (server-side apply computes them on the server).
 */
export const stripManagedFields: Transform = (obj) => {
  if (obj.metadata?.managedFields) delete obj.metadata.managedFields;
  return obj;
};
