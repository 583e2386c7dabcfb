import type { KubernetesObject } from '@kubernetes/client-node';
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
export function objectMetadataOf(obj: KubernetesObject): KubernetesObject {
  return stripManagedFields({ apiVersion: obj.apiVersion, kind: obj.kind, metadata: obj.metadata });
}
