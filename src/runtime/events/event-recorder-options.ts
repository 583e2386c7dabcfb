import { hostname } from 'node:os';
import { systemClock, type Clock } from '../clock/clock.ts';
import type { Client } from '../client/client.ts';
import { silentLogger, type Logger } from '../log/logger.ts';

/** How an ApiEventRecorder writes, folds and limits events. Durations are in milliseconds. */
export interface EventRecorderOptions {
  /** Writes the events (create, and merge patch of a series). Required. */
  client: Pick<Client, 'create' | 'patch'>;
  /** The `reportingController` of every event, e.g. `webapp-operator` or `demo.example.org/webapp`. Required. */
  reportingController: string;
  /** The `reportingInstance` of every event. Default: the host name (the pod name in a cluster). */
  reportingInstance?: string;
  /**
   * A repeat of an event (same object, type, reason, action, note and related object) within this
   * time of the last one updates that event's series instead of creating another. Default: 6 min,
   * client-go's series finish time.
   */
  seriesWindow?: number;
  /** Events one object may burst before the rate limit drops them. Default: 25, as client-go. */
  burst?: number;
  /** Time to earn one more event per object once the burst is spent. Default: 5 min (client-go's 1/300 qps). */
  refillInterval?: number;
  /**
   * Events waiting to be written, at most; more are dropped (logged, and counted in
   * `events_dropped_total{reason="queue_full"}`) until the API server takes the waiting ones.
   * Default: 1000, as client-go.
   */
  maxQueuedEvents?: number;
  /** Event writes in flight at once (one at a time per series). Default: 8, client-go's workers. */
  maxConcurrentWrites?: number;
  /** Default: systemClock. */
  clock?: Clock;
  /** Where dropped and failed events are logged. Default: silentLogger. */
  logger?: Logger;
}

export type ResolvedEventRecorderOptions = Required<EventRecorderOptions>;

export function resolveEventRecorderOptions(options: EventRecorderOptions): ResolvedEventRecorderOptions {
  return {
    client: options.client,
    reportingController: options.reportingController,
    reportingInstance: options.reportingInstance ?? hostname(),
    seriesWindow: options.seriesWindow ?? 6 * 60_000,
    burst: options.burst ?? 25,
    refillInterval: options.refillInterval ?? 5 * 60_000,
    maxQueuedEvents: options.maxQueuedEvents ?? 1000,
    maxConcurrentWrites: options.maxConcurrentWrites ?? 8,
    clock: options.clock ?? systemClock,
    logger: options.logger ?? silentLogger,
  };
}
