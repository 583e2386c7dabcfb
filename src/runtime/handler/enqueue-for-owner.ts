import type { V1OwnerReference } from '@kubernetes/client-node';
import type { KubeObject } from '../api/kube-object.ts';
import type { Kind } from '../client/kind.ts';
import { eventObjects } from '../event/object-event.ts';
import { requestKey, type Request } from '../reconcile/request.ts';
import type { Handler } from './handler.ts';

/** Which owner references {@link enqueueForOwner} follows. */
export interface EnqueueForOwnerOptions {
  /** Only the owner reference with `controller: true` counts. Default: true (as `owns(kind)`). */
  onlyController?: boolean;
}

/**
 * Requests a reconcile of the owners of `ownerKind` of the object the event is about, as
 * controller-runtime's EnqueueRequestForOwner: the handler of `owns(kind)`. On an update both the
 * old and the new owners are reconciled, so an owner that lost its child hears of it too.
 */
export function enqueueForOwner<T extends KubeObject>(
  ownerKind: Kind,
  options: EnqueueForOwnerOptions = {},
): Handler<T> {
  const onlyController = options.onlyController ?? true;
  const matches = (ref: V1OwnerReference): boolean =>
    ref.kind === ownerKind.kind &&
    groupOf(ref.apiVersion) === ownerKind.group &&
    (!onlyController || ref.controller === true);
  return (event) => {
    const requests = new Map<string, Request>();
    for (const object of eventObjects(event)) {
      // A namespaced owner lives in its dependent's namespace; a cluster-scoped owner has none.
      const namespace = ownerKind.namespaced ? (object.metadata?.namespace ?? '') : '';
      for (const ref of object.metadata?.ownerReferences ?? []) {
        if (!matches(ref)) continue;
        const request = { namespace, name: ref.name };
        requests.set(requestKey(request), request);
      }
    }
    return [...requests.values()];
  };
}

/** The group of an apiVersion: owner references may name any version of the owner's group. */
function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}
