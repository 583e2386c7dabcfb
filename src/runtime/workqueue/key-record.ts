/**
 * Everything the queue knows of one key, in one object so that each operation looks the key up
 * once. A record exists while the key is pending (client-go's "dirty" set) or processing.
 */
export interface KeyRecord<K extends string> {
  readonly key: K;
  /** Added and not yet handed out. */
  pending: boolean;
  /** Handed out and not yet done. */
  processing: boolean;
  /** Priority of the pending add: the highest it was given. */
  priority: number;
  /** Priority the key was handed out at, while processing: requeues of it default to this one. */
  servedPriority: number;
  /** Order of the pending add across the queue: the fairness rule serves the lowest first. */
  seq: number;
  /** Monotonic clock reading of the pending add, for `workqueue_queue_duration_seconds`; 0 without metrics. */
  addedAt: number;
  /** Monotonic clock reading of the hand-out, for the work duration metrics; 0 without metrics. */
  startedAt: number;
  /**
   * Changes at every push into the ready queue; a slot there holding an older ticket is a leftover
   * of a priority change and is skipped.
   */
  ticket: number;
}
