import type { V1OwnerReference } from '@kubernetes/client-node';
import type { KubeObject } from '../api/kube-object.ts';
import { AlreadyOwnedError } from './already-owned-error.ts';

/** The type of an owner, for owners read from a list (whose items carry no apiVersion and kind). */
export interface OwnerType {
  readonly apiVersion: string;
  readonly kind: string;
}

/**
 * Makes `owner` the controller of `object`: garbage collection deletes `object` with its owner,
 * and `owns(Kind)` watches map `object`'s events to its owner. Refuses (AlreadyOwnedError) when
 * `object` has another controller, and refuses owners the API server would not honour: an owner in
 * another namespace, or a namespaced owner of a cluster-scoped object. Messages are
 * controller-runtime's.
 *
 * @example
 * ```ts
 * setControllerReference(app, deployment);
 * await client.create(deployment);
 * ```
 */
export function setControllerReference(owner: KubeObject, object: KubeObject, ownerType?: OwnerType): void {
  const ref: V1OwnerReference = {
    ...ownerReferenceTo(owner, object, ownerType),
    blockOwnerDeletion: true,
    controller: true,
  };
  const current = getControllerOf(object);
  if (current !== undefined && !referSameObject(current, ref)) throw new AlreadyOwnedError(object, current);
  upsertOwnerReference(object, ref);
}

/**
 * Adds `owner` to `object`'s owner references without making it the controller: `object` is
 * garbage-collected once all its owners are gone.
 */
export function setOwnerReference(owner: KubeObject, object: KubeObject, ownerType?: OwnerType): void {
  upsertOwnerReference(object, ownerReferenceTo(owner, object, ownerType));
}

/** Removes `owner` from `object`'s owner references; throws when it is not among them. */
export function removeOwnerReference(owner: KubeObject, object: KubeObject, ownerType?: OwnerType): void {
  const refs = object.metadata?.ownerReferences ?? [];
  if (refs.length === 0) throw new Error(`${describe(object)} does not have any owner references`);
  const ref = { ...typeOf(owner, ownerType), name: owner.metadata?.name ?? '', uid: '' };
  const index = refs.findIndex((r) => referSameObject(r, ref));
  if (index < 0)
    throw new Error(`${describe(object)} does not have an owner reference for ${describe(owner, ownerType)}`);
  refs.splice(index, 1);
}

/** True when `object` has a controller owner reference. */
export function hasControllerReference(object: KubeObject): boolean {
  return getControllerOf(object) !== undefined;
}

/** The owner reference of `object`'s controller, or undefined. */
export function getControllerOf(object: KubeObject): V1OwnerReference | undefined {
  return object.metadata?.ownerReferences?.find((r) => r.controller === true);
}

function ownerReferenceTo(
  owner: KubeObject,
  object: KubeObject,
  ownerType: OwnerType | undefined,
): V1OwnerReference {
  validateOwner(owner, object);
  const uid = owner.metadata?.uid;
  if (!uid)
    throw new Error(
      `owner ${describe(owner, ownerType)} has no uid: use the object as the API server returned it`,
    );
  return { ...typeOf(owner, ownerType), name: owner.metadata?.name ?? '', uid };
}

function validateOwner(owner: KubeObject, object: KubeObject): void {
  const ownerNamespace = owner.metadata?.namespace ?? '';
  if (ownerNamespace === '') return;
  const objectNamespace = object.metadata?.namespace ?? '';
  if (objectNamespace === '') {
    throw new Error(
      `cluster-scoped resource must not have a namespace-scoped owner, owner's namespace ${ownerNamespace}`,
    );
  }
  if (objectNamespace !== ownerNamespace) {
    throw new Error(
      `cross-namespace owner references are disallowed, owner's namespace ${ownerNamespace}, obj's namespace ${objectNamespace}`,
    );
  }
}

function typeOf(owner: KubeObject, ownerType: OwnerType | undefined): OwnerType {
  const apiVersion = owner.apiVersion ?? ownerType?.apiVersion;
  const kind = owner.kind ?? ownerType?.kind;
  if (!apiVersion || !kind) {
    throw new Error(
      `owner ${owner.metadata?.name ?? ''} has no apiVersion and kind: pass its kind as the last argument`,
    );
  }
  return { apiVersion, kind };
}

/** Replaces a reference to the same object (by group, kind and name), or appends one. */
function upsertOwnerReference(object: KubeObject, ref: V1OwnerReference): void {
  const metadata = (object.metadata ??= {});
  const refs = (metadata.ownerReferences ??= []);
  const index = refs.findIndex((r) => referSameObject(r, ref));
  if (index < 0) refs.push(ref);
  else refs[index] = ref;
}

/** References name the same object when group, kind and name agree; the version may differ. */
function referSameObject(a: OwnerType & { name: string }, b: OwnerType & { name: string }): boolean {
  return groupOf(a.apiVersion) === groupOf(b.apiVersion) && a.kind === b.kind && a.name === b.name;
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

function describe(object: KubeObject, ownerType?: OwnerType): string {
  const kind = object.kind ?? ownerType?.kind ?? 'object';
  return `${kind} ${object.metadata?.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata?.name ?? ''}`;
}
