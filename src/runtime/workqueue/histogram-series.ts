/**
 * The observations of one labelled histogram series, counted per bucket in plain numbers: an
 * observation costs a few comparisons and three additions, with no label handling, and the counts
 * are turned into cumulative Prometheus buckets only when the registry collects.
 */
export class HistogramSeries {
  /** Upper bounds, ascending. */
  readonly bounds: readonly number[];
  /** `counts[i]`: observations at most `bounds[i]` and above `bounds[i - 1]`; the last, above every bound. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(bounds: readonly number[]) {
    this.bounds = bounds;
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    let bucket = 0;
    while (bucket < bounds.length && value > (bounds[bucket] as number)) bucket++;
    this.counts[bucket] = (this.counts[bucket] as number) + 1;
    this.sum += value;
    this.count++;
  }

  reset(): void {
    this.counts.fill(0);
    this.sum = 0;
    this.count = 0;
  }
}
