/** What each peer of the cache benchmark prints, as one JSON line (the Go peer's field names too). */
export interface CacheRunResult {
  readonly objects: number;
  readonly syncSeconds: number;
  readonly bytesPerObject: number;
}
