/** A key that was added and is not yet handed to a worker (client-go's "dirty" set holds these). */
export interface PendingKey<K extends string> {
  readonly key: K;
  priority: number;
  /** Order of first add across the queue: the fairness rule serves the lowest first. */
  readonly seq: number;
  /** Clock reading of the first add, for `workqueue_queue_duration_seconds`; 0 without metrics. */
  readonly addedAt: number;
  /** Set when the key moved to another priority: this copy is skipped where it still lies. */
  stale: boolean;
}
