/**
 * What an informer tells its handlers, as client-go's ResourceEventHandler. Objects are the
 * cache's own, frozen: read them, copy them to change them. Handlers run one at a time, in event
 * order, and must not block (a controller's handlers only enqueue keys).
 */
export interface EventHandler<T> {
  /** A new object; `isInInitialList` is true for those of the first list (and the replay to a late handler). */
  onAdd?(obj: Readonly<T>, isInInitialList: boolean): void;
  /** A changed object, or the same one twice on a periodic resync. */
  onUpdate?(oldObj: Readonly<T>, newObj: Readonly<T>): void;
  /**
   * A deleted object in its last state. `finalStateUnknown` is true when the deletion was found
   * by a relist: the object is then the last state the cache saw, which may be older.
   */
  onDelete?(obj: Readonly<T>, finalStateUnknown: boolean): void;
}

/** A handler added to an informer. */
export interface HandlerRegistration {
  /** True once the handler has been given every object of the informer's first list. */
  hasSynced(): boolean;
  /** Stops the handler's events. */
  remove(): void;
}
