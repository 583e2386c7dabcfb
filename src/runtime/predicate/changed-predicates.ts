import type { KubeObject } from '../api/kube-object.ts';
import type { Predicate } from './predicate.ts';

/**
 * Lets an update through only when `.metadata.generation` changed, i.e. the spec changed: a
 * controller that writes its own status then does not reconcile again for that write. Create,
 * delete and generic events pass. Kinds without a generation (ConfigMap, ...) never pass updates.
 *
 * @example
 * ```ts
 * mgr.controller(WebAppKind).withEventFilter(generationChanged).complete(reconciler);
 * ```
 */
export const generationChanged: Predicate<KubeObject> = (event) =>
  event.type !== 'update' || event.object.metadata?.generation !== event.oldObject.metadata?.generation;

/**
 * Lets an update through only when `.metadata.resourceVersion` changed: drops the periodic resyncs
 * an informer replays with an unchanged object. Other events pass.
 */
export const resourceVersionChanged: Predicate<KubeObject> = (event) =>
  event.type !== 'update' ||
  event.object.metadata?.resourceVersion !== event.oldObject.metadata?.resourceVersion;

/** Lets an update through only when `.metadata.labels` changed. Other events pass. */
export const labelsChanged: Predicate<KubeObject> = (event) =>
  event.type !== 'update' || !sameEntries(event.object.metadata?.labels, event.oldObject.metadata?.labels);

/** Lets an update through only when `.metadata.annotations` changed. Other events pass. */
export const annotationsChanged: Predicate<KubeObject> = (event) =>
  event.type !== 'update' ||
  !sameEntries(event.object.metadata?.annotations, event.oldObject.metadata?.annotations);

/** Maps compare equal when they hold the same keys and values; absent and empty are the same. */
function sameEntries(
  a: Readonly<Record<string, string>> | undefined,
  b: Readonly<Record<string, string>> | undefined,
): boolean {
  const aKeys = Object.keys(a ?? {});
  if (aKeys.length !== Object.keys(b ?? {}).length) return false;
  return aKeys.every((key) => b !== undefined && Object.hasOwn(b, key) && b[key] === a?.[key]);
}
