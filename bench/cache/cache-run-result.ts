/** What each peer of the cache benchmark prints, as one JSON line (the Go peer's field names too). */
export interface CacheRunResult {
  readonly objects: number;
  /** From creating the cache to its own wait for sync returning (controller-runtime's polls every 100 ms). */
  readonly syncSeconds: number;
  /** From creating the cache to the moment the informer had synced, to the millisecond. */
  readonly hasSyncedSeconds: number;
  /** CPU time (user + system, all threads) the process spent from creating the cache to synced. */
  readonly syncCpuSeconds: number;
  /** Live heap after a forced GC with the cache synced, minus before the cache existed, per object. */
  readonly heapBytesPerObject: number;
  /** Resident set after that GC, minus before the cache existed, per object. */
  readonly rssBytesPerObject: number;
  /** Bytes allocated from creating the cache to synced, per object: the garbage a listed object makes. */
  readonly allocBytesPerObject: number;
  /** Live heap a key adds to the controller's queue, per key, one queued for each object. */
  readonly queuedKeyBytes: number;
  /** The process's peak resident set (VmHWM) at the end. */
  readonly peakRssBytes: number;
  /** The process's resident set after the sync and a forced GC. */
  readonly rssAfterSyncBytes: number;
}
