import type { KubeObject } from '../api/kube-object.ts';
import { stripManagedFields } from '../cache/transform.ts';

/**
 * The Accept of a metadata-only read of one object or watch events, as client-go's metadata
 * client asks: the API server answers PartialObjectMetadata (apiVersion, kind and metadata, no
 * spec or status) for every kind, custom resources included. Plain JSON comes second, so that a
 * server or proxy that cannot convert answers whole objects, which {@link objectMetadataOf} cuts
 * down here.
 */
export const PARTIAL_OBJECT_METADATA =
  'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1, application/json';

/** The Accept of a metadata-only list: a PartialObjectMetadataList (see {@link PARTIAL_OBJECT_METADATA}). */
export const PARTIAL_OBJECT_METADATA_LIST =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json';

/**
 * The object's apiVersion, kind and metadata without managedFields: what a metadata-only reader
 * keeps, whether the server sent PartialObjectMetadata or the whole object.
 */
export function objectMetadataOf(obj: KubeObject): KubeObject {
  return stripManagedFields({ apiVersion: obj.apiVersion, kind: obj.kind, metadata: obj.metadata });
}

/** The objects a metadata-only read returned: they name their kind but hold no spec or status. */
const metadataOnly = new WeakSet<KubeObject>();

/** Marks `obj` as read metadata-only, so that a write of it whole is refused. */
export function markMetadataOnly<T extends KubeObject>(obj: T): T {
  metadataOnly.add(obj);
  return obj;
}

/**
 * Throws when `obj` came from a metadata-only read: created or replaced whole it would drop its
 * spec and status, so such an object is only patched, as controller-runtime refuses to create or
 * update PartialObjectMetadata.
 */
export function refuseMetadataOnlyWrite(obj: KubeObject, verb: 'create' | 'update'): void {
  if (!metadataOnly.has(obj)) return;
  const name = `${obj.kind ?? 'object'} ${obj.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata?.name ?? ''}`;
  throw new Error(
    `cannot ${verb} ${name}: it was read metadata-only and holds no spec or status; patch it, or read it whole first`,
  );
}
