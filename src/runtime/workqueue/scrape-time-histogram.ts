import type { Metric, Registry } from 'prom-client';
import { HistogramSeries } from './histogram-series.ts';

export interface ScrapeTimeHistogramConfiguration<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  /** Upper bounds, ascending; `+Inf` is implied. */
  buckets: readonly number[];
  registers: readonly Registry[];
}

type Labels = Record<string, string | number>;

/**
 * One sample as prom-client's `Histogram` gives it for the text exposition: its own labels (`le`)
 * apart from the series' labels (`sharedLabels`), which the registry prints after them.
 */
interface ExpositionSample {
  labels: Labels;
  sharedLabels: Labels;
  value: number;
  metricName: string;
  exemplar?: null;
}

/** One sample as `get()` gives it, for `getMetricsAsJSON`: all labels in one object. */
interface Sample {
  value: number;
  metricName: string;
  exemplar?: null;
  labels: Labels;
}

/** What the registry reads from a metric. */
export interface CollectedMetric<S> {
  name: string;
  help: string;
  type: 'histogram';
  values: S[];
  aggregator: 'sum';
}

/**
 * A histogram metric whose series count their observations in plain numbers (see
 * {@link HistogramSeries}) and are read by the registry only when it collects. prom-client's
 * `Histogram` checks the labels and hashes them on every `observe`, which costs more than a queue
 * operation; here a caller takes its series once and observes into it directly.
 *
 * prom-client's registry serialises a metric from what its `getForPromString()` returns (its
 * `get()` when it has none), gives `get()` to `getMetricsAsJSON()` and calls `reset()` on
 * `resetMetrics()`. Both return the samples prom-client's `Histogram` returns, in the same shapes
 * and order, so /metrics and the JSON read exactly as with it, default labels included. A series is
 * exported once it has an observation, as a `Histogram`'s is.
 */
export class ScrapeTimeHistogram<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #labelNames: readonly L[];
  readonly #buckets: readonly number[];
  readonly #series = new Map<string, { labels: Readonly<Record<L, string>>; series: HistogramSeries }>();

  constructor(config: ScrapeTimeHistogramConfiguration<L>) {
    this.name = config.name;
    this.help = config.help;
    this.#labelNames = config.labelNames;
    this.#buckets = config.buckets;
    // prom-client types `registerMetric` for its own metric classes only; its registry reads any
    // object with the members above.
    for (const registry of config.registers) registry.registerMetric(this as unknown as Metric);
  }

  /** The series of `labels`, created on first use; observe into it. */
  series(labels: Readonly<Record<L, string>>): HistogramSeries {
    const key = JSON.stringify(this.#labelNames.map((name) => labels[name]));
    let found = this.#series.get(key);
    if (found === undefined) {
      found = { labels: { ...labels }, series: new HistogramSeries(this.#buckets) };
      this.#series.set(key, found);
    }
    return found.series;
  }

  getForPromString(): Promise<CollectedMetric<ExpositionSample>> {
    const values: ExpositionSample[] = [];
    for (const { labels, series } of this.#series.values()) {
      if (series.count > 0) this.#collect(labels, series, values);
    }
    return Promise.resolve(this.#metric(values));
  }

  async get(): Promise<CollectedMetric<Sample>> {
    const { values } = await this.getForPromString();
    return this.#metric(
      values.map(({ labels, sharedLabels, value, metricName, exemplar }) => ({
        value,
        metricName,
        exemplar,
        labels: { ...labels, ...sharedLabels },
      })),
    );
  }

  reset(): void {
    for (const { series } of this.#series.values()) series.reset();
  }

  #metric<S>(values: S[]): CollectedMetric<S> {
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  #collect(labels: Labels, series: HistogramSeries, values: ExpositionSample[]): void {
    const bucket = `${this.name}_bucket`;
    let cumulative = 0;
    series.bounds.forEach((le, i) => {
      cumulative += series.counts[i] as number;
      values.push({
        labels: { le },
        sharedLabels: labels,
        value: cumulative,
        metricName: bucket,
        exemplar: null,
      });
    });
    values.push(
      {
        labels: { le: '+Inf' },
        sharedLabels: labels,
        value: series.count,
        metricName: bucket,
        exemplar: null,
      },
      {
        labels: {},
        sharedLabels: labels,
        value: series.sum,
        metricName: `${this.name}_sum`,
        exemplar: undefined,
      },
      {
        labels: {},
        sharedLabels: labels,
        value: series.count,
        metricName: `${this.name}_count`,
        exemplar: undefined,
      },
    );
  }
}
