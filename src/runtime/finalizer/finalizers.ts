import type { KubeObject } from '../api/kube-object.ts';

/** Adds `finalizer` to the object's finalizers (in memory); returns whether it was missing. */
export function addFinalizer(obj: KubeObject, finalizer: string): boolean {
  const metadata = (obj.metadata ??= {});
  const finalizers = (metadata.finalizers ??= []);
  if (finalizers.includes(finalizer)) return false;
  finalizers.push(finalizer);
  return true;
}

/** Removes every occurrence of `finalizer` from the object (in memory); returns whether there was one. */
export function removeFinalizer(obj: KubeObject, finalizer: string): boolean {
  const finalizers = obj.metadata?.finalizers;
  if (!finalizers?.includes(finalizer)) return false;
  obj.metadata = { ...obj.metadata, finalizers: finalizers.filter((f) => f !== finalizer) };
  return true;
}

/** True when the object carries `finalizer`. */
export function containsFinalizer(obj: KubeObject, finalizer: string): boolean {
  return obj.metadata?.finalizers?.includes(finalizer) ?? false;
}

/** True once deletion was requested: the API server waits for the finalizers before removing it. */
export function isBeingDeleted(obj: KubeObject): boolean {
  return obj.metadata?.deletionTimestamp !== undefined && obj.metadata.deletionTimestamp !== null;
}
