/**
 * What happened to an object, as predicates and handlers see it (controller-runtime's
 * event.CreateEvent, UpdateEvent, DeleteEvent and GenericEvent in one tagged union). Objects are
 * the cache's own, frozen: read them, never change them.
 */
export type ObjectEvent<T> =
  | { readonly type: 'create'; readonly object: Readonly<T>; readonly isInInitialList: boolean }
  | { readonly type: 'update'; readonly object: Readonly<T>; readonly oldObject: Readonly<T> }
  | { readonly type: 'delete'; readonly object: Readonly<T>; readonly finalStateUnknown: boolean }
  | { readonly type: 'generic'; readonly object: Readonly<T> };

/** The object an event is about, and for an update also the one it replaced. */
export function eventObjects<T>(event: ObjectEvent<T>): Readonly<T>[] {
  return event.type === 'update' ? [event.object, event.oldObject] : [event.object];
}
