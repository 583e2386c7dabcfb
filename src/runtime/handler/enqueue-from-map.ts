import type { KubeObject } from '../api/kube-object.ts';
import { eventObjects } from '../event/object-event.ts';
import { requestKey, type Request } from '../reconcile/request.ts';
import type { Handler } from './handler.ts';

/**
 * Requests the reconciles a function maps the object to, as controller-runtime's
 * EnqueueRequestsFromMapFunc: for watches of kinds that are related but not owned (a Secret that
 * several WebApps mount, say). On an update both the old and the new object are mapped.
 */
export function enqueueFromMap<T extends KubeObject>(map: (obj: Readonly<T>) => Request[]): Handler<T> {
  return (event) => {
    const requests = new Map<string, Request>();
    for (const object of eventObjects(event)) {
      for (const request of map(object)) requests.set(requestKey(request), request);
    }
    return [...requests.values()];
  };
}
