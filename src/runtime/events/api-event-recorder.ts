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
 * An EventRecorder writing events.k8s.io/v1 Events through the client, as client-go's events
 * broadcaster: a repeat within the series window patches `series.count` and
 * `series.lastObservedTime` of the event already written instead of creating another, and a token
 * bucket per object drops floods. Writes run one at a time, in order, in the background.
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
  #writes: Promise<void> = Promise.resolve();
  #lastNanos = 0n;

  constructor(options: EventRecorderOptions) {
    this.#options = resolveEventRecorderOptions(options);
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
    if (!this.#allow(regarding)) {
      this.#options.logger.debug('event dropped by the rate limit', {
        reason,
        action,
        object: referenceKey(regarding),
      });
      return;
    }
    const now = this.#options.clock.now();
    const observed = this.#options.clock.monotonic();
    this.#writes = this.#writes.then(() => this.#write(facts, now, observed));
  }

  /** Resolves once every event recorded so far has been written (or has failed and been logged). */
  flush(): Promise<void> {
    return this.#writes;
  }

  #allow(regarding: KubeObject): boolean {
    const key = referenceKey(regarding);
    let bucket = this.#buckets.get(key);
    if (bucket === undefined) {
      const { burst, refillInterval, clock } = this.#options;
      bucket = new TokenBucket(burst, refillInterval, clock);
      this.#buckets.set(key, bucket);
    }
    return bucket.tryTake();
  }

  /** `now` is the wall time written into the event; `observed` the monotonic time of the recording. */
  async #write(facts: EventFacts, now: number, observed: number): Promise<void> {
    const key = seriesKey(facts);
    try {
      const series = this.#series.get(key);
      if (series !== undefined && observed - series.lastObserved <= this.#options.seriesWindow) {
        if (await this.#extend(series, now, observed)) return;
      }
      this.#series.set(key, { event: await this.#create(facts, now), count: 1, lastObserved: observed });
    } catch (err) {
      this.#series.delete(key);
      this.#options.logger.error('could not write event', {
        reason: facts.reason,
        object: referenceKey(facts.regarding),
        err,
      });
    }
  }

  /** Counts a repeat into the event already written; false when that event has expired meanwhile. */
  async #extend(series: Series, now: number, observed: number): Promise<boolean> {
    const count = series.count + 1;
    const patch = mergePatch({ series: { count, lastObservedTime: new MicroTimeDate(now) } });
    try {
      await this.#options.client.patch(series.event, patch);
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
    series.count = count;
    series.lastObserved = observed;
    return true;
  }

  #create(facts: EventFacts, now: number): Promise<Json<EventsV1Event>> {
    const nanos = BigInt(now) * 1_000_000n;
    this.#lastNanos = nanos > this.#lastNanos ? nanos : this.#lastNanos + 1n;
    const { reportingController, reportingInstance } = this.#options;
    return this.#options.client.create(
      newEvent(facts, { now, nanos: this.#lastNanos, reportingController, reportingInstance }),
    );
  }
}
