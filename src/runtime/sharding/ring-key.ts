import type { V1OwnerReference } from '@kubernetes/client-node';
import type { KubeObject } from '../api/kube-object.ts';
import type { Kind } from '../client/kind.ts';

/**
 * Where an object of a ring's own kind goes: `group/kind/namespace/name`, the external project's
 * key. Names only, no uid, so an owner and the objects it controls hash alike from what their
 * owner references say.
 */
export function ringKeyOf(kind: Kind, obj: KubeObject): string {
  return ringKey(kind.group, kind.kind, obj.metadata?.namespace ?? '', obj.metadata?.name ?? '');
}

/**
 * Where a controlled object goes: its controlling owner's key, so it lands on its owner's shard;
 * `ownerKind` says whether the owner is namespaced (then in the object's namespace) or cluster
 * scoped (no namespace, whatever the object's). Undefined when it has no controller reference:
 * such an object is not assigned.
 */
export function controllerRingKeyOf(obj: KubeObject, ownerKind: Kind): string | undefined {
  const owner = controllerOf(obj);
  if (!owner) return undefined;
  const namespace = ownerKind.namespaced ? (obj.metadata?.namespace ?? '') : '';
  return ringKey(groupOf(owner.apiVersion), owner.kind, namespace, owner.name);
}

/** The owner reference with `controller: true`, if any. */
export function controllerOf(obj: KubeObject): V1OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((ref) => ref.controller === true);
}

function ringKey(group: string, kind: string, namespace: string, name: string): string {
  return `${group}/${kind}/${namespace}/${name}`;
}

/** `apps/v1` → `apps`; `v1` → '' (the core group). */
function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}
