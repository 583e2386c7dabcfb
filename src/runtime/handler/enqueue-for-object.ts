import type { KubernetesObject } from '@kubernetes/client-node';
import type { Handler } from './handler.ts';

/** Requests a reconcile of the object the event is about: the handler of `for(kind)`. */
export function enqueueForObject<T extends KubernetesObject>(): Handler<T> {
  return (event) => {
    const name = event.object.metadata?.name;
    return name ? [{ namespace: event.object.metadata?.namespace ?? '', name }] : [];
  };
}
