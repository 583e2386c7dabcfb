import type { V1Lease } from '@kubernetes/client-node';
import type { Json } from '../api/json.ts';
import type { KubeObject } from '../api/kube-object.ts';
import type { Cache } from '../cache/cache.ts';
import type { ShardSelection } from '../cache/shard-selection.ts';
import type { Client } from '../client/client.ts';
import type { Transport } from '../client/transport.ts';
import type { Kind } from '../client/kind.ts';
import { LeaseKind } from '../client/kinds.ts';
import { mergePatch } from '../client/patch.ts';
import type { Clock } from '../clock/clock.ts';
import { WakeablePause } from '../clock/wakeable-pause.ts';
import type { Logger } from '../log/logger.ts';
import { fnv1a64 } from './fnv1a64.ts';
import {
  equalRange,
  formatRanges,
  inRanges,
  intersectRanges,
  parseRanges,
  sameRanges,
  shardSelectorOf,
  subtractRanges,
  unionRanges,
  type HashRanges,
} from './hash-ranges.ts';
import { LiveShards } from './live-shards.ts';
import { RING_LABEL } from './shard-labels.ts';
import type { ShardingMetrics } from './sharding-metrics.ts';

/** On a shard's Lease: the hash ranges it may reconcile, for the others to keep out of. */
export const RANGES_ANNOTATION = 'sharding.tsoperator.dev/ranges';

/** What the server hashes: each object's uid, or its namespace (owner and owned then go together). */
export type ShardKey = 'uid' | 'namespace';

/** What a {@link RangeMember} needs. */
export interface RangeMemberOptions {
  readonly ring: string;
  readonly shard: string;
  readonly leaseNamespace: string;
  readonly key: ShardKey;
  /** The kinds whose informers hold this shard's ranges only. */
  readonly kinds: readonly Kind[];
  readonly cache: Cache;
  readonly client: Client;
  /** What the ring's Leases are watched with, to step as soon as one changes hands or ranges. */
  readonly transport: Transport;
  readonly retryPeriod: number;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: ShardingMetrics;
}

/**
 * A shard of a ring split by the API server (KEP-5866's `shardSelector`): N live shards (their
 * Leases, sorted by name) take N equal ranges of the 64-bit FNV-1a hash of each object's uid or
 * namespace. No object carries a label, so hand-over is agreed in the Leases instead: each shard
 * publishes on its Lease the ranges it may reconcile, gives up a range only once its reconciles
 * there have returned (then unpublishes it), and takes a range only when no live shard publishes
 * it: it publishes its claim first, then reads the Leases again (a quorum read) and withdraws on
 * any overlap, so of two shards racing for a range at most one keeps it.
 */
export class RangeMember {
  readonly #o: RangeMemberOptions;
  readonly #field: string;
  /** What reconciles may touch; narrowed before a range is given up. */
  #allowed: HashRanges = [];
  /** What the informers select and the Lease publishes. */
  #held: HashRanges = [];
  readonly #inFlight = new Map<symbol, bigint>();

  constructor(options: RangeMemberOptions) {
    this.#o = options;
    this.#field = options.key === 'uid' ? 'object.metadata.uid' : 'object.metadata.namespace';
  }

  /** The selection an informer of this shard starts with: nothing until the first ranges are agreed. */
  selection(): ShardSelection {
    return this.#selectionOf(this.#held);
  }

  /** The hash the server puts `obj` at. */
  hashOf(obj: KubeObject): bigint {
    return fnv1a64((this.#o.key === 'uid' ? obj.metadata?.uid : obj.metadata?.namespace) ?? '');
  }

  /**
   * Runs `work` if `obj` is this shard's to reconcile now, else returns undefined without running
   * it; a range is never given up while such work is in flight.
   */
  async whileOwned<T>(obj: KubeObject, work: () => Promise<T>): Promise<T | undefined> {
    const hash = this.hashOf(obj);
    if (!inRanges(this.#allowed, hash)) return undefined;
    const token = Symbol('reconcile');
    this.#inFlight.set(token, hash);
    try {
      return await work();
    } finally {
      this.#inFlight.delete(token);
    }
  }

  /**
   * Follows the ring's membership until `signal` aborts: every retry period, and at once when a
   * Lease changes holder or ranges (a shard taken over, released or joining; a range given up), so
   * that a freed range is taken a watch event after it is freed, not up to a period later. The
   * step itself reads the Leases from the server; the watch only wakes it.
   */
  async run(signal: AbortSignal): Promise<void> {
    const { ring, leaseNamespace, transport, clock, logger, retryPeriod } = this.#o;
    const leases = new LiveShards({ ring, leaseNamespace, transport, clock, logger });
    const pause = new WakeablePause(clock);
    const wake = (): void => pause.wake();
    leases.onChange({
      onAdd: wake,
      onDelete: wake,
      onUpdate: (old, lease) => {
        if (changesRanges(old, lease, this.#o.shard)) wake();
      },
    });
    leases.start(signal);
    while (!signal.aborted) {
      try {
        // Two shards that both withdrew a contested claim would otherwise retry in step, each
        // woken by the other's withdrawal: the loser waits out its period instead.
        if (await this.#step(signal)) pause.clear();
      } catch (err) {
        // A failed step waits its period, whatever changed meanwhile.
        pause.clear();
        if (!signal.aborted) logger.error('shard range update failed', { shard: this.#o.shard, err });
      }
      await pause.pause(retryPeriod, signal);
    }
  }

  /** One step toward this shard's equal range; true when a claim lost part of it to another shard. */
  async #step(signal: AbortSignal): Promise<boolean> {
    const { target, others } = await this.#view(signal);
    // Not live (its Lease released or taken over): it reconciles nothing, whatever it held.
    const keep = target ? intersectRanges(this.#held, target) : [];
    if (!sameRanges(keep, this.#held)) await this.#giveUp(keep, signal);
    if (!target) return false;
    const wanted = subtractRanges(subtractRanges(target, others), this.#held);
    return wanted.length > 0 && !signal.aborted && !(await this.#claim(wanted, signal));
  }

  /** Narrows to `keep`: no new reconcile outside it, the running ones return, then the informers and the Lease follow. */
  async #giveUp(keep: HashRanges, signal: AbortSignal): Promise<void> {
    this.#allowed = keep;
    while ([...this.#inFlight.values()].some((hash) => !inRanges(keep, hash)) && !signal.aborted)
      await this.#o.clock.sleep(20, signal);
    if (signal.aborted) return;
    this.#held = keep;
    this.#reshard();
    await this.#publish(keep, signal);
  }

  /** Publishes `wanted` as claimed, keeps what no other live shard published meanwhile, and takes it; false when it lost some. */
  async #claim(wanted: HashRanges, signal: AbortSignal): Promise<boolean> {
    const claimed = unionRanges(this.#held, wanted);
    await this.#publish(claimed, signal);
    const { others } = await this.#view(signal);
    const won = subtractRanges(wanted, others);
    const held = unionRanges(this.#held, won);
    const lost = !sameRanges(held, claimed);
    if (lost) await this.#publish(held, signal);
    if (signal.aborted || sameRanges(held, this.#held)) return !lost;
    this.#o.logger.info('shard ranges', { shard: this.#o.shard, ranges: formatRanges(held) });
    this.#held = held;
    this.#allowed = held;
    this.#reshard();
    return !lost;
  }

  /** This shard's equal range among the live ones, and the ranges the other live shards publish. */
  async #view(signal: AbortSignal): Promise<{ target: HashRanges | undefined; others: HashRanges }> {
    const { client, leaseNamespace, ring, shard } = this.#o;
    const leases = await client
      .direct()
      .listAll(LeaseKind, { namespace: leaseNamespace, labelSelector: `${RING_LABEL}=${ring}`, signal });
    const live = leases.filter(isHeldByItsShard);
    const names = live.map((l) => l.metadata?.name ?? '').sort();
    const index = names.indexOf(shard);
    let others: HashRanges = [];
    for (const lease of live) {
      if (lease.metadata?.name === shard) continue;
      others = unionRanges(others, parseRanges(lease.metadata?.annotations?.[RANGES_ANNOTATION]));
    }
    return { target: index < 0 ? undefined : equalRange(index, names.length), others };
  }

  async #publish(ranges: HashRanges, signal: AbortSignal): Promise<void> {
    const { client, leaseNamespace, shard } = this.#o;
    const lease: V1Lease = {
      apiVersion: LeaseKind.apiVersion,
      kind: LeaseKind.kind,
      metadata: { namespace: leaseNamespace, name: shard },
    };
    const annotations = { [RANGES_ANNOTATION]: formatRanges(ranges) };
    await client.patch(lease, mergePatch({ metadata: { annotations } }), { signal });
  }

  #reshard(): void {
    const selection = this.#selectionOf(this.#held);
    for (const kind of this.#o.kinds) this.#o.cache.shardFor(kind, selection);
  }

  #selectionOf(ranges: HashRanges): ShardSelection {
    return {
      selector: shardSelectorOf(ranges, this.#field),
      matches: (obj) => inRanges(ranges, this.hashOf(obj)),
    };
  }
}

/**
 * Whether a Lease's update is one shard `self`'s ranges follow: a change of holder, or of another
 * shard's published ranges (its own are what it published). A renewal alone is not.
 */
function changesRanges(old: Json<V1Lease>, lease: Json<V1Lease>, self: string): boolean {
  if (old.spec?.holderIdentity !== lease.spec?.holderIdentity) return true;
  const ranges = (l: Json<V1Lease>): string | undefined => l.metadata?.annotations?.[RANGES_ANNOTATION];
  return lease.metadata?.name !== self && ranges(old) !== ranges(lease);
}

/** A live shard: its Lease held by the shard it is named for (not released, not taken over). */
function isHeldByItsShard(lease: Json<V1Lease>): boolean {
  return (lease.spec?.holderIdentity ?? '') !== '' && lease.spec?.holderIdentity === lease.metadata?.name;
}
