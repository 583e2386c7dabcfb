/** How a key is added to a {@link Workqueue}. */
export interface AddOptions {
  /**
   * Higher priorities are served first (see `maxOvertakes` for the fairness rule); a key added
   * again while it waits keeps the highest priority it was given. Default: 0 for `add`; for
   * `addAfter` and `addRateLimited`, the priority the key has in the queue (see `Workqueue.addAfter`).
   */
  priority?: number;
}

/** The priority of events from an informer's initial list, as controller-runtime's `LowPriority`. */
export const LOW_PRIORITY = -100;
