/**
 * What `Workqueue.get` resolves to: a key to process (call `done(key)` after), or `shutdown` when
 * the queue is shut down and has nothing left to hand out.
 */
export type QueueItem<K extends string> =
  { readonly shutdown: false; readonly key: K; readonly priority: number } | { readonly shutdown: true };

/** The one shutdown answer, shared because it carries nothing. */
export const SHUTDOWN: QueueItem<never> = Object.freeze({ shutdown: true });
