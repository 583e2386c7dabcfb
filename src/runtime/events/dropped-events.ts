import { Counter } from '../metrics/prom-client.ts';
import { oncePerRegistry } from '../metrics/once-per-registry.ts';
import { metricsRegistry } from '../metrics/registry.ts';

/** Why a recorded event was not written: its object's rate limit, or a full write queue. */
export type DropReason = 'rate_limited' | 'queue_full';

/**
 * `events_dropped_total{reporting_controller, reason}`: events recorded but never written, so a
 * flood or an API server too slow to take them shows on a dashboard, not only in the log.
 */
const droppedEvents = oncePerRegistry(
  (registry) =>
    new Counter({
      name: 'events_dropped_total',
      help: "Number of recorded events not written to the API server, partitioned by reporting controller and reason (rate_limited: the object's burst was spent; queue_full: too many events were waiting to be written).",
      labelNames: ['reporting_controller', 'reason'],
      registers: [registry],
    }),
);

/** Counts one dropped event. */
export function countDroppedEvent(reportingController: string, reason: DropReason): void {
  droppedEvents(metricsRegistry).inc({ reporting_controller: reportingController, reason });
}
