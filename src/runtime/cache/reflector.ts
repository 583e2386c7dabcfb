import type { KubernetesObject } from '@kubernetes/client-node';
import { apiErrorFromStatus, isGone, type Status } from '../client/api-error.ts';
import { ApiReader } from '../client/api-reader.ts';
import type { Kind } from '../client/kind.ts';
import { listInPages, type PageRequest } from '../client/list-pager.ts';
import type { ObjectList } from '../client/options.ts';
import { resourcePath, withQuery } from '../client/resource-path.ts';
import type { Transport } from '../client/transport.ts';
import { systemClock, type Clock } from '../clock/clock.ts';
import type { Logger } from '../log/logger.ts';
import { Backoff, type BackoffOptions } from './backoff.ts';
import { watchEvents } from './watch-events.ts';

/** Where a reflector writes what it lists and watches. */
export interface ReflectorSink {
  /** The full content of the reflector's scope at `resourceVersion` (after a list). */
  replace(items: KubernetesObject[], resourceVersion: string): void;
  /** One change, in resourceVersion order. */
  change(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubernetesObject): void;
  /** Every change up to `resourceVersion` has been delivered (after each event and bookmark). */
  progress(resourceVersion: string): void;
}

/** What a reflector lists and watches, and how. */
export interface ReflectorOptions {
  readonly transport: Transport;
  readonly kind: Kind;
  readonly sink: ReflectorSink;
  /** Default: all namespaces. */
  readonly namespace?: string;
  /** Default: none. */
  readonly labelSelector?: string;
  /** Default: none. */
  readonly fieldSelector?: string;
  /** Objects per list page. Default: 500. */
  readonly pageSize?: number;
  /** Watches ask the server to end them after between this and twice this many seconds, at random. Default: 300 (client-go). */
  readonly minWatchTimeoutSeconds?: number;
  /** Pauses after errors. Default: 800 ms doubling to 30 s, with jitter. */
  readonly backoff?: BackoffOptions;
  /** Default: Math.random. */
  readonly random?: () => number;
  /** Measures how long watches last (its monotonic reading) and sleeps the backoff. Default: systemClock. */
  readonly clock?: Clock;
  readonly logger: Logger;
}

/** A watch that ended normally sooner than this, having delivered nothing, counts as a failure: no spinning. */
const MIN_HEALTHY_WATCH_MS = 1000;
/** How long after its timeoutSeconds a watch may stay open before we drop it ourselves (a silent dead connection). */
const WATCH_DEADLINE_GRACE_MS = 30_000;

/**
 * Lists a kind (paginated), then watches it from the list's resourceVersion with bookmarks,
 * as client-go's Reflector. A watch that ends normally is resumed from the last resourceVersion
 * seen, without a relist; 410 Gone relists; any other failure backs off (800 ms to 30 s, jittered)
 * and retries. It stops only when `signal` aborts.
 *
 * Not built on client-node's makeInformer (it stops on errors, asks for no bookmarks, keeps no
 * indexes) nor its Watch (it aborts a stream after 30 s without data, which an idle kind always
 * reaches, and reports a refused watch without its Status body): watches use the Transport.
 */
export class Reflector {
  readonly #o: ReflectorOptions & {
    pageSize: number;
    minWatchTimeoutSeconds: number;
    random: () => number;
    clock: Clock;
  };
  readonly #backoff: Backoff;
  readonly #api: ApiReader;
  #resourceVersion: string | undefined;
  /** 410s since the last watch that delivered something: a second one in a row backs off. */
  #goneInARow = 0;
  #lastError: unknown;

  constructor(options: ReflectorOptions) {
    this.#o = {
      pageSize: 500,
      minWatchTimeoutSeconds: 300,
      random: Math.random,
      clock: systemClock,
      ...options,
    };
    this.#backoff = new Backoff({ random: this.#o.random, clock: this.#o.clock, ...options.backoff });
    this.#api = new ApiReader(options.transport);
  }

  /** The last list or watch failure, until a list succeeds: what a cache that does not sync reports. */
  get lastError(): unknown {
    return this.#lastError;
  }

  /** Runs until `signal` aborts; never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        if (this.#resourceVersion === undefined) this.#resourceVersion = await this.#list(signal);
        const healthy = await this.#watch(this.#resourceVersion, signal);
        if (healthy) this.#healthy();
        else await this.#backoff.wait(signal);
      } catch (err) {
        if (signal.aborted) return;
        if (isGone(err)) {
          this.#o.logger.info('resourceVersion expired, relisting', {
            kind: this.#o.kind.kind,
            resourceVersion: this.#resourceVersion,
          });
          this.#resourceVersion = undefined;
          // 410 again before any event came means the server cannot serve this watch: no list storm.
          if (this.#goneInARow++ > 0) await this.#backoff.wait(signal);
          continue;
        }
        this.#lastError = err;
        this.#o.logger.error('list/watch failed, retrying', { kind: this.#o.kind.kind, err });
        await this.#backoff.wait(signal);
      }
    }
  }

  /**
   * A consistent paginated list, handed to the sink whole; returns its resourceVersion. An expired
   * continue token falls back to one full list, as client-go's pager.
   */
  async #list(signal: AbortSignal): Promise<string> {
    const { kind, namespace, labelSelector, fieldSelector } = this.#o;
    const fetchPage = (page: PageRequest): Promise<ObjectList<KubernetesObject>> =>
      this.#api.list(kind, { namespace, labelSelector, fieldSelector, signal, ...page });
    const { items, resourceVersion } = await listInPages(fetchPage, this.#o.pageSize);
    this.#lastError = undefined;
    this.#o.sink.replace(items, resourceVersion);
    return resourceVersion;
  }

  /**
   * One watch from `from`. Returns whether it was healthy (ran a while or delivered something);
   * throws on failure, an ApiError for ERROR events.
   */
  async #watch(from: string, signal: AbortSignal): Promise<boolean> {
    const timeoutSeconds = Math.floor(this.#o.minWatchTimeoutSeconds * (1 + this.#o.random()));
    const query = {
      ...this.#selectors(),
      watch: 1,
      resourceVersion: from,
      allowWatchBookmarks: true,
      timeoutSeconds,
    };
    const path = withQuery(this.#path(), query);
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), timeoutSeconds * 1000 + WATCH_DEADLINE_GRACE_MS);
    const started = this.#o.clock.monotonic();
    let delivered = false;
    try {
      const res = await this.#o.transport.stream(path, AbortSignal.any([signal, deadline.signal]));
      try {
        for await (const event of watchEvents(res)) {
          if (event.type === 'ERROR')
            throw apiErrorFromStatus(event.object as Status, `watch ${this.#o.kind.plural}`);
          const rv = event.object.metadata?.resourceVersion;
          if (event.type !== 'BOOKMARK') this.#o.sink.change(event.type, event.object);
          if (rv) {
            this.#resourceVersion = rv;
            this.#o.sink.progress(rv);
          }
          if (!delivered) this.#healthy();
          delivered = true;
        }
      } finally {
        res.destroy();
      }
    } catch (err) {
      // Our own deadline is a normal end: resume from the last resourceVersion.
      if (!deadline.signal.aborted || signal.aborted) throw err;
    } finally {
      clearTimeout(timer);
    }
    return delivered || this.#o.clock.monotonic() - started >= MIN_HEALTHY_WATCH_MS;
  }

  /** Events flow again: the next failure starts its backoff over. */
  #healthy(): void {
    this.#goneInARow = 0;
    this.#backoff.reset();
  }

  #path(): string {
    return resourcePath(this.#o.kind, this.#o.namespace);
  }

  #selectors(): { labelSelector: string | undefined; fieldSelector: string | undefined } {
    return { labelSelector: this.#o.labelSelector, fieldSelector: this.#o.fieldSelector };
  }
}
