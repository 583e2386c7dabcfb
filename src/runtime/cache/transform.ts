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

/**
 * Freezes an object and everything in it. The cache stores frozen objects, so event handlers get
 * them without a copy and cannot corrupt the cache by accident; reads through the client copy them.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

/**
 * A mutable deep copy of a JSON object: what cached reads return. Faster than structuredClone for
 * the plain objects the API server sends (it need not handle cycles, dates or maps).
 */
export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const out: Record<string, unknown> = {};
  for (const key in value) out[key] = cloneJson((value as Record<string, unknown>)[key]);
  return out as T;
}
