/** A counter of one queue. */
export interface CounterMetric {
  inc(): void;
}

/** A histogram of one queue, in seconds. */
export interface HistogramMetric {
  observe(seconds: number): void;
}

/** The depth of one queue, kept per priority as controller-runtime's priority queue keeps it. */
export interface DepthMetric {
  inc(priority: number): void;
  dec(priority: number): void;
}

/** Work handed out and not yet done, read when the metrics are collected. */
export interface InFlightWork {
  /** Sum of how long each in-flight key has been processed so far. */
  unfinishedSeconds: number;
  /** How long the oldest in-flight key has been processed so far. */
  longestRunningSeconds: number;
}

/**
 * Makes the metrics of a queue, by queue name: the seam between the queue and Prometheus, as
 * client-go's `MetricsProvider`. In-flight work is pulled at collection time by `observeInFlight`
 * instead of being pushed by a timer in every queue, so the values are exact and no timer runs.
 */
export interface WorkqueueMetricsProvider {
  depth(name: string): DepthMetric;
  adds(name: string): CounterMetric;
  queueDuration(name: string): HistogramMetric;
  workDuration(name: string): HistogramMetric;
  retries(name: string): CounterMetric;
  /** Reports `read()` as the queue's in-flight work until the returned function is called. */
  observeInFlight(name: string, read: () => InFlightWork): () => void;
}
