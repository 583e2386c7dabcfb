import type { KubeObject } from '../api/kube-object.ts';
import type { ObjectEvent } from '../event/object-event.ts';
import type { Request } from '../reconcile/request.ts';

/**
 * Decides which reconcile requests an event causes, as controller-runtime's handler.EventHandler.
 * A handler only maps; the controller de-duplicates the requests in its workqueue.
 */
export type Handler<T extends KubeObject = KubeObject> = (event: ObjectEvent<T>) => Request[];
