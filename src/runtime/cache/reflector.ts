import type { KubeObject } from '../api/kube-object.ts';
import { ApiError, apiErrorFromStatus, isGone, type Status } from '../client/api-error.ts';
import { isHealthChecked } from '../client/health-checked.ts';
import type { Kind } from '../client/kind.ts';
import { listInPages, type PageRequest } from '../client/list-pager.ts';
import type { ObjectList } from '../client/options.ts';
import { PARTIAL_OBJECT_METADATA, PARTIAL_OBJECT_METADATA_LIST } from '../client/partial-object-metadata.ts';
import { resourcePath, withQuery } from '../client/resource-path.ts';
import type { Transport } from '../client/transport.ts';
import { systemClock, type Clock } from '../clock/clock.ts';
import type { Logger } from '../log/logger.ts';
import { Backoff, type BackoffOptions } from './backoff.ts';
import { readList } from './list-reader.ts';
import type { ShardSelection } from './shard-selection.ts';
import { isTooLargeResourceVersion } from './too-large-resource-version.ts';
import { watchEvents } from './watch-events.ts';
import { WatchSilence } from './watch-silence.ts';

/**
 * Where a reflector writes what it lists and watches. A list is `listStart`, its objects in
 * batches as they are read, then `listEnd`; a list that fails or starts over (an expired
 * continue token) is followed by another `listStart`, never by `listEnd`.
 */
export interface ReflectorSink {
  /** A list of the reflector's whole scope begins. */
  listStart(): void;
  /** Objects of the list, as they are read. */
  listItems(items: readonly KubeObject[]): void;
  /** The list is complete: it was the full content of the scope at `resourceVersion`. */
  listEnd(resourceVersion: string): void;
  /** One change, in resourceVersion order. */
  change(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject): void;
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
  /** Only this shard of the kind, selected by the server where it can and here always. Default: all. */
  readonly shard?: ShardSelection;
  /** List and watch PartialObjectMetadata: each object's apiVersion, kind and metadata. Default: false. */
  readonly metadataOnly?: boolean;
  /**
   * List the latest state in pages of this many objects (see {@link Reflector}). Default: none,
   * one response.
   */
  readonly pageSize?: number;
  /** Watches ask the server to end them after between this and twice this many seconds, at random. Default: 300 (client-go). */
  readonly minWatchTimeoutSeconds?: number;
  /**
   * A watch that has delivered neither event nor bookmark for this long is restarted: its
   * connection may have died without a word. Only where nothing else notices, and only where
   * silence says so: on a connection no health check watches (HTTP/1.1; HTTP/2's PING notices a
   * dead path), from the watch's start, unless the server has shown it sends no bookmarks for the
   * kind (see {@link WatchSilence}). The API server's watch cache sends one about once a minute to
   * a watch that asks for them, as ours do. Default: 75 000.
   */
  readonly watchIdleTimeoutMs?: number;
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
 * Lists a kind, then watches it from the list's resourceVersion with bookmarks, as client-go's
 * Reflector. A watch that ends normally is resumed from the last resourceVersion seen, without a
 * relist, and so is one silent for `watchIdleTimeoutMs` (see there); 410 Gone relists; any
 * other failure backs off (800 ms to 30 s, jittered, or the Retry-After of a 429 when longer) and
 * retries. It stops only when `signal` aborts.
 *
 * The first list is a consistent one, the latest state (resourceVersion ''): "synced" then
 * means the store holds a state at least as new as the API server's when the informer started,
 * which client-go v0.37 gets by streaming the initial state (WatchListClient,
 * `sendInitialEvents`). A resourceVersion-0 list, client-go's fallback, answers whatever the
 * API server's watch cache holds, which may be older: a watch cache that cannot convert what
 * was written since (a broken conversion webhook) answers its old state, even none, with a 200.
 * kube-apiserver 1.34+ serves the consistent list from its watch cache once that has caught up,
 * and refuses it when the cache cannot. It comes in one response, which costs what the
 * resourceVersion-0 list does, where pages of 500 cost 1.3× and the stream 2× (in JSON; see
 * bench/RESULTS.md); `pageSize` pages it, for a server without a watch cache, whose etcd would
 * otherwise read the whole kind at once. A relist asks for the last resourceVersion seen, in one
 * response (a `limit` would send it to etcd), which is at least as new. A list that
 * resourceVersion is compacted away from (410) or that the server has not reached yet is made
 * again at the latest state.
 *
 * Not built on client-node's makeInformer (it stops on errors, asks for no bookmarks, keeps no
 * indexes) nor its Watch (it aborts a stream after 30 s without data, which an idle kind always
 * reaches, and reports a refused watch without its Status body): watches use the Transport.
 */
export class Reflector {
  readonly #o: ReflectorOptions & {
    minWatchTimeoutSeconds: number;
    watchIdleTimeoutMs: number;
    random: () => number;
    clock: Clock;
  };
  readonly #backoff: Backoff;
  /** The resourceVersion up to which the sink has every change: the last list's, then the last event's. */
  #resourceVersion = '';
  #mustList = true;
  /** The last list or watch said #resourceVersion is compacted away or not reached yet. */
  #resourceVersionUnavailable = false;
  /** 410s since the last watch that delivered something: a second one in a row backs off. */
  #goneInARow = 0;
  #lastError: unknown;
  /** Whether the last list's metadata echoed the shard selector: the server applied it. */
  #serverSharded = false;
  /** Whether a silent watch is restarted: what the server's bookmarks have shown so far. */
  readonly #silence = new WatchSilence();

  constructor(options: ReflectorOptions) {
    this.#o = {
      minWatchTimeoutSeconds: 300,
      watchIdleTimeoutMs: 75_000,
      random: Math.random,
      clock: systemClock,
      ...options,
    };
    this.#backoff = new Backoff({ random: this.#o.random, clock: this.#o.clock, ...options.backoff });
  }

  /** The last list or watch failure, until a list succeeds: what a cache that does not sync reports. */
  get lastError(): unknown {
    return this.#lastError;
  }

  /** Whether the server applied the shard selector to the last list (it echoed it). */
  get serverSharded(): boolean {
    return this.#serverSharded;
  }

  /** Runs until `signal` aborts; never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        if (this.#mustList) await this.#list(signal);
        const healthy = await this.#watch(this.#resourceVersion, signal);
        if (healthy) this.#healthy();
        else await this.#pause(undefined, signal);
      } catch (err) {
        if (signal.aborted) return;
        if (isGone(err)) {
          this.#o.logger.info('resourceVersion expired, relisting', {
            kind: this.#o.kind.kind,
            resourceVersion: this.#resourceVersion,
          });
          this.#mustList = true;
          // 410 again before any event came means the server cannot serve this watch: no list storm.
          if (this.#goneInARow++ > 0) await this.#pause(undefined, signal);
          continue;
        }
        this.#lastError = err;
        this.#o.logger.error('list/watch failed, retrying', { kind: this.#o.kind.kind, err });
        await this.#pause(err, signal);
      }
    }
  }

  /**
   * The backoff's next pause, or longer when the failure asked for it: a 429 past the transport's
   * retries carries the Retry-After the server still wants.
   */
  #pause(err: unknown, signal: AbortSignal): Promise<void> {
    const asked = err instanceof ApiError ? (err.status.details?.retryAfterSeconds ?? 0) * 1000 : 0;
    return this.#o.clock.sleep(Math.max(this.#backoff.next(), asked), signal);
  }

  /**
   * Lists at client-go's resourceVersion (see {@link Reflector}), handing the objects to the sink
   * as they are read. A resourceVersion the server no longer has or has not reached is listed
   * again at the latest state.
   */
  async #list(signal: AbortSignal): Promise<void> {
    let resourceVersion: string;
    try {
      resourceVersion = await this.#listAt(this.#relistResourceVersion(), signal);
    } catch (err) {
      if (!isGone(err) && !isTooLargeResourceVersion(err)) throw err;
      this.#resourceVersionUnavailable = true;
      resourceVersion = await this.#listAt(this.#relistResourceVersion(), signal);
    }
    this.#resourceVersionUnavailable = false;
    this.#lastError = undefined;
    this.#o.sink.listEnd(resourceVersion);
    this.#resourceVersion = resourceVersion;
    this.#mustList = false;
  }

  /** The latest state ('') first and after a 410, then the last resourceVersion seen. */
  #relistResourceVersion(): string {
    return this.#resourceVersionUnavailable ? '' : this.#resourceVersion;
  }

  /**
   * One list at `resourceVersion`; the latest state ('') in pages when `pageSize` is set. Only
   * the first request names the resourceVersion: continue tokens carry it, and an expired one
   * falls back to a full list of the latest state, as client-go's pager.
   */
  async #listAt(resourceVersion: string, signal: AbortSignal): Promise<string> {
    const sink = this.#o.sink;
    const shard = this.#o.shard;
    let first = true;
    const fetchPage = async (page: PageRequest): Promise<ObjectList<KubeObject>> => {
      // Each request without a continue token starts the list over.
      if (page.continue === undefined) sink.listStart();
      const query = {
        ...this.#selectors(),
        resourceVersion: first ? resourceVersion : undefined,
        limit: page.limit,
        continue: page.continue,
      };
      first = false;
      const path = withQuery(this.#path(), query);
      const meta = await readList(
        this.#o.transport,
        this.#o.kind,
        path,
        signal,
        (items) => sink.listItems(this.#inShard(items)),
        this.#o.metadataOnly ? PARTIAL_OBJECT_METADATA_LIST : undefined,
      );
      this.#serverSharded = shard !== undefined && meta.shardSelector === shard.selector;
      return { items: [], ...meta };
    };
    const { pageSize } = this.#o;
    if (resourceVersion !== '' || pageSize === undefined)
      return (await fetchPage({ limit: undefined, continue: undefined })).resourceVersion;
    return (await listInPages(fetchPage, pageSize)).resourceVersion;
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
    // Our own end of the watch: past its deadline, or silent.
    const ended = new AbortController();
    let deadline: NodeJS.Timeout | undefined;
    let idle: NodeJS.Timeout | undefined;
    const started = this.#o.clock.monotonic();
    let delivered = false;
    try {
      const res = await this.#o.transport.stream(
        path,
        AbortSignal.any([signal, ended.signal]),
        this.#o.metadataOnly ? PARTIAL_OBJECT_METADATA : undefined,
      );
      // From the answer's head: the Retry-After waits before it are no part of the watch.
      deadline = setTimeout(() => ended.abort(), timeoutSeconds * 1000 + WATCH_DEADLINE_GRACE_MS);
      const guarded = !isHealthChecked(res);
      const guard = (): void => {
        idle ??= setTimeout(() => {
          // Fired: an event's refresh() must not arm it again unless a bookmark says so.
          idle = undefined;
          this.#silent(ended);
        }, this.#o.watchIdleTimeoutMs);
      };
      if (guarded && this.#silence.guards) guard();
      try {
        for await (const event of watchEvents(res)) {
          idle?.refresh();
          if (event.type === 'BOOKMARK') {
            this.#silence.bookmark();
            if (guarded) guard();
          }
          if (event.type === 'ERROR')
            throw apiErrorFromStatus(event.object as Status, `watch ${this.#o.kind.plural}`);
          const rv = event.object.metadata?.resourceVersion;
          if (event.type !== 'BOOKMARK')
            this.#o.sink.change(this.#shardedType(event.type, event.object), this.#asKind(event.object));
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
      // Our own end is a normal one: resume from the last resourceVersion.
      if (!ended.signal.aborted || signal.aborted) throw err;
    } finally {
      clearTimeout(deadline);
      clearTimeout(idle);
    }
    return delivered || this.#o.clock.monotonic() - started >= MIN_HEALTHY_WATCH_MS;
  }

  /**
   * A watch silent past `watchIdleTimeoutMs`: ended, to be resumed on a new connection, unless it
   * shows that the server sends no bookmarks for the kind.
   */
  #silent(ended: AbortController): void {
    const fields = { kind: this.#o.kind.kind, silentMs: this.#o.watchIdleTimeoutMs };
    if (this.#silence.restarts()) {
      this.#o.logger.info('watch silent, restarting it', fields);
      ended.abort();
    } else {
      this.#o.logger.info(
        'no bookmark from the server since a silent watch was restarted: quiet watches are left open',
        fields,
      );
    }
  }

  /** A metadata-only event's object says PartialObjectMetadata: it is an object of the kind. */
  #asKind(obj: KubeObject): KubeObject {
    if (this.#o.metadataOnly) {
      obj.apiVersion = this.#o.kind.apiVersion;
      obj.kind = this.#o.kind.kind;
    }
    return obj;
  }

  /** Events flow again: the next failure starts its backoff over. */
  #healthy(): void {
    this.#goneInARow = 0;
    this.#backoff.reset();
  }

  #path(): string {
    return resourcePath(this.#o.kind, this.#o.namespace);
  }

  #selectors(): { labelSelector?: string; fieldSelector?: string; shardSelector?: string } {
    return {
      labelSelector: this.#o.labelSelector,
      fieldSelector: this.#o.fieldSelector,
      shardSelector: this.#o.shard?.selector,
    };
  }

  /**
   * The listed objects of the shard. Tested here even when the server echoed the selector: the
   * hash costs far less than the decoding, and a server rolled back to one without the gate
   * ignores the parameter on the next request without a word.
   */
  #inShard(items: readonly KubeObject[]): readonly KubeObject[] {
    const shard = this.#o.shard;
    return shard ? items.filter((obj) => shard.matches(obj)) : items;
  }

  /** An object outside the shard is, to the sink, gone: it drops it if it held it. */
  #shardedType(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject): 'ADDED' | 'MODIFIED' | 'DELETED' {
    return this.#o.shard && !this.#o.shard.matches(obj) ? 'DELETED' : type;
  }
}
