import type { JsonInput } from '../api/json.ts';
import type { KubeObject } from '../api/kube-object.ts';
import type { Kind } from './kind.ts';

/** Names one object: `namespace` is ignored (and may be absent) for cluster-scoped kinds. */
export interface ObjectKey {
  readonly namespace?: string;
  readonly name: string;
}

/** The key of an object, from its metadata. */
export function objectKey(obj: KubeObject): ObjectKey {
  const name = obj.metadata?.name;
  if (!name) throw new Error(`${obj.kind ?? 'Object'} has no metadata.name`);
  return { namespace: obj.metadata?.namespace ?? '', name };
}

/** `namespace/name`, or `name` for a cluster-scoped object: the store and workqueue key. */
export function keyString(key: ObjectKey): string {
  return key.namespace ? `${key.namespace}/${key.name}` : key.name;
}

/**
 * The smallest object naming `key` of `kind`, for writes that need no body (delete, apply), or
 * to fill in before one (a `JsonInput<T>`: a client-node model's fields may be assigned into it).
 *
 * @example
 * ```ts
 * await client.delete(objectRef(ConfigMapKind, { namespace: 'default', name: 'settings' }));
 * ```
 */
export function objectRef<T extends KubeObject>(kind: Kind<T>, key: ObjectKey): JsonInput<T> {
  const metadata = kind.namespaced ? { name: key.name, namespace: key.namespace ?? '' } : { name: key.name };
  return { apiVersion: kind.apiVersion, kind: kind.kind, metadata } as JsonInput<T>;
}
