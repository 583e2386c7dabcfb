import type { V1OwnerReference } from '@kubernetes/client-node';
import type { KubeObject } from '../api/kube-object.ts';

/** Thrown when an object already has a controller other than the one being set. */
export class AlreadyOwnedError extends Error {
  readonly object: KubeObject;
  /** The controller reference the object already has. */
  readonly owner: V1OwnerReference;

  constructor(object: KubeObject, owner: V1OwnerReference) {
    super(
      `Object ${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''} is already owned by another ${owner.kind} controller ${owner.name}`,
    );
    this.name = 'AlreadyOwnedError';
    this.object = object;
    this.owner = owner;
  }
}
