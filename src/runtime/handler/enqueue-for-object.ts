import type { KubeObject } from '../api/kube-object.ts';
import type { Handler } from './handler.ts';

/** Requests a reconcile of the object the event is about: the handler of `for(kind)`. */
export function enqueueForObject<T extends KubeObject>(): Handler<T> {
  return (event) => {
    const name = event.object.metadata?.name;
    return name ? [{ namespace: event.object.metadata?.namespace ?? '', name }] : [];
  };
}
