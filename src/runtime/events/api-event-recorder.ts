import type { EventsV1Event } from '@kubernetes/client-node';
import type { Json } from '../api/json.ts';
import type { KubeObject } from '../api/kube-object.ts';
import { MicroTimeDate } from '../api/micro-time-date.ts';
import { isNotFound } from '../client/api-error.ts';
import { mergePatch } from '../client/patch.ts';
import { newEvent, referenceKey, seriesKey, type EventFacts } from './event-body.ts';
import type { EventRecorder, EventType } from './event-recorder.ts';
import {
  resolveEventRecorderOptions,
  type EventRecorderOptions,
  type ResolvedEventRecorderOptions,
} from './event-recorder-options.ts';
import { countDroppedEvent } from './dropped-events.ts';
import { EventQueue } from './event-queue.ts';
import { LruMap } from './lru-map.ts';
import { TokenBucket } from './token-bucket.ts';

/** client-go keeps this many objects' rate limits and series. */
const CACHE_SIZE = 4096;

/** The last event written for a series key. */
interface Series {
  readonly event: Json<EventsV1Event>;
  count: number;
  /** When last observed, on the monotonic clock: the series window is a duration. */
  lastObserved: number;
}

/**
 * An event waiting to be written: its body, built when it was recorded, names the object by
 * reference only, so the queue never holds the objects themselves. Repeats recorded while it
 * waits are folded into it.
 */
interface QueuedEvent {
  readonly key: string;
  readonly body: EventsV1Event;
  /** The object's reference key, for the log. */
  readonly object: string;
  /** Occurrences folded in, this one included. */
  count: number;
  /** Monotonic time of the first occurrence, which decides whether it extends a series. */
  readonly firstObserved: number;
  /** Wall and monotonic time of the last occurrence. */
  now: number;
  observed: number;
}

/**
 * An EventRecorder writing events.k8s.io/v1 Events through the client, as client-go's events
 * broadcaster: a repeat within the series window patches `series.count` and
 * `series.lastObservedTime` of the event already written instead of creating another, and a token
 * bucket per object drops floods. Writes run in the background, several at once (one at a time
 * per series), from a bounded queue: when it is full, events are dropped, logged and counted in
 * `events_dropped_total`, before the rate limit, which they then cost nothing.
 *
 * @example
 * ```ts
 * const recorder = new ApiEventRecorder({ client, reportingController: 'webapp-operator' });
 * recorder.event(app, 'Normal', 'Created', 'CreateDeployment', `created deployment ${name}`);
 * await recorder.flush(); // at shutdown
 * ```
 */
export class ApiEventRecorder implements EventRecorder {
  readonly #options: ResolvedEventRecorderOptions;
  readonly #buckets = new LruMap<string, TokenBucket>(CACHE_SIZE);
  readonly #series = new LruMap<string, Series>(CACHE_SIZE);
  readonly #queue: EventQueue<QueuedEvent>;
  #lastNanos = 0n;
  /** Whether the last event offered found the queue full: the drop is logged once per episode. */
  #full = false;

  constructor(options: EventRecorderOptions) {
    this.#options = resolveEventRecorderOptions(options);
    const { maxQueuedEvents, maxConcurrentWrites } = this.#options;
    this.#queue = new EventQueue(maxQueuedEvents, maxConcurrentWrites, (queued) => this.#write(queued));
  }

  /** Events waiting to be written (not counting those being written). */
  get queued(): number {
    return this.#queue.length;
  }

  event(
    regarding: KubeObject,
    type: EventType,
    reason: string,
    action: string,
    note: string,
    related?: KubeObject,
  ): void {
    const facts: EventFacts = { regarding, related, type, reason, action, note };
    const object = referenceKey(regarding);
    const { clock, logger, reportingController } = this.#options;
    const key = seriesKey(facts);
    // The queue first, the rate limit after, as client-go's spam filter runs past its broadcaster's
    // queue: an event the queue drops costs its object none of its budget.
    if (!this.#queue.accepts(key)) {
      this.#dropFull(reason, object);
      return;
    }
    this.#full = false;
    if (!this.#allow(object)) {
      logger.debug('event dropped by the rate limit', { reason, action, object });
      countDroppedEvent(reportingController, 'rate_limited');
      return;
    }
    const now = clock.now();
    const observed = clock.monotonic();
    this.#queue.offer(
      key,
      () => ({
        key,
        body: this.#newEvent(facts, now),
        object,
        count: 1,
        firstObserved: observed,
        now,
        observed,
      }),
      (waiting) => {
        waiting.count++;
        waiting.now = now;
        waiting.observed = observed;
      },
    );
  }

  /** Counts an event the full queue turned away; logs the first of each episode. */
  #dropFull(reason: string, object: string): void {
    countDroppedEvent(this.#options.reportingController, 'queue_full');
    if (this.#full) return;
    this.#full = true;
    this.#options.logger.error(
      'events dropped: too many are waiting to be written; dropping more until the queue drains',
      { reason, object, queued: this.#queue.length },
    );
  }

  /** Resolves once every event recorded so far has been written (or has failed and been logged). */
  flush(): Promise<void> {
    return this.#queue.idle();
  }

  #allow(object: string): boolean {
    let bucket = this.#buckets.get(object);
    if (bucket === undefined) {
      const { burst, refillInterval, clock } = this.#options;
      bucket = new TokenBucket(burst, refillInterval, clock);
      this.#buckets.set(object, bucket);
    }
    return bucket.tryTake();
  }

  #newEvent(facts: EventFacts, now: number): EventsV1Event {
    const nanos = BigInt(now) * 1_000_000n;
    this.#lastNanos = nanos > this.#lastNanos ? nanos : this.#lastNanos + 1n;
    const { reportingController, reportingInstance } = this.#options;
    return newEvent(facts, { now, nanos: this.#lastNanos, reportingController, reportingInstance });
  }

  /** Extends the series the event belongs to, or creates it. Never rejects: failures are logged. */
  async #write(queued: QueuedEvent): Promise<void> {
    try {
      const series = this.#series.get(queued.key);
      if (series !== undefined && queued.firstObserved - series.lastObserved <= this.#options.seriesWindow) {
        if (await this.#extend(series, queued)) return;
      }
      const event = await this.#options.client.create(withSeries(queued));
      this.#series.set(queued.key, { event, count: queued.count, lastObserved: queued.observed });
    } catch (err) {
      this.#series.delete(queued.key);
      this.#options.logger.error('could not write event', {
        reason: queued.body.reason,
        object: queued.object,
        err,
      });
    }
  }

  /** Counts the repeats into the event already written; false when that event has expired meanwhile. */
  async #extend(series: Series, queued: QueuedEvent): Promise<boolean> {
    const count = series.count + queued.count;
    const patch = mergePatch({ series: { count, lastObservedTime: new MicroTimeDate(queued.now) } });
    try {
      await this.#options.client.patch(series.event, patch);
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
    series.count = count;
    series.lastObserved = queued.observed;
    return true;
  }
}

/** The body to create: a series already when repeats were folded in while it waited. */
function withSeries(queued: QueuedEvent): EventsV1Event {
  if (queued.count < 2) return queued.body;
  return { ...queued.body, series: { count: queued.count, lastObservedTime: new MicroTimeDate(queued.now) } };
}
