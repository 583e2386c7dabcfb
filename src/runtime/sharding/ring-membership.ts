import type { V1Lease } from '@kubernetes/client-node';
import type { SharedInformer } from '../cache/informer.ts';
import { isConflict, isNotFound } from '../client/api-error.ts';
import type { Client } from '../client/client.ts';
import { MicroTimeDate } from '../api/micro-time-date.ts';
import type { Clock } from '../clock/clock.ts';
import type { Logger } from '../log/logger.ts';
import { SHARDER_IDENTITY, STATE_LABEL } from './shard-labels.ts';
import { isAvailable, shardStateOf, type ShardState } from './shard-state.ts';
import type { ShardingMetrics } from './sharding-metrics.ts';

/** What {@link RingMembership} reads the Leases with and writes them through. */
export interface RingMembershipOptions {
  readonly ring: string;
  /** The ring's Leases, as the sharder's informer holds them. */
  readonly leases: SharedInformer<V1Lease>;
  readonly client: Client;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: ShardingMetrics;
}

/** When the sharder last saw a Lease's holder renew it, on its own monotonic clock. */
interface Observation {
  /** Holder, renew time and duration: labels the sharder writes do not count as a renewal. */
  readonly record: string;
  readonly at: number;
}

/**
 * The ring's shards as the sharder sees them in their Leases. A shard that stopped renewing is
 * declared dead once its Lease has not changed for its whole duration on the sharder's own
 * monotonic clock, as a leader-election candidate takes a lease: by then the shard, which stops
 * reconciling when it cannot renew within its renew deadline (shorter than the duration), has
 * stopped, whatever the skew between the two clocks. The external project instead waits one more
 * duration ('uncertain') on the wall clock; this one moves a dead shard's objects a lease duration
 * sooner, and writes the same Lease the same way (holder `shardlease-controller`), so that
 * project's tools read the ring alike.
 */
export class RingMembership {
  readonly #o: RingMembershipOptions;
  readonly #seen = new Map<string, Observation>();
  /** Monotonic time each shard was first seen dead, for the hand-over metric. */
  readonly #deadSince = new Map<string, number>();

  constructor(options: RingMembershipOptions) {
    this.#o = options;
  }

  /**
   * Reads every Lease of the ring: declares dead the shards that stopped renewing, labels each
   * Lease with its state, deletes the orphaned ones. Returns the shards objects may be assigned to.
   */
  async check(): Promise<string[]> {
    const { clock, metrics, ring } = this.#o;
    const available: string[] = [];
    const counts = new Map<ShardState, number>();
    const present = new Set<string>();
    for (const lease of this.#o.leases.store.values()) {
      const name = lease.metadata?.name ?? '';
      present.add(name);
      const state = await this.#settle(lease);
      counts.set(state, (counts.get(state) ?? 0) + 1);
      if (isAvailable(state)) {
        available.push(name);
        this.#deadSince.delete(name);
      } else if (!this.#deadSince.has(name)) {
        this.#deadSince.set(name, clock.monotonic());
      }
    }
    for (const name of this.#seen.keys()) if (!present.has(name)) this.#seen.delete(name);
    for (const state of ['ready', 'expired', 'uncertain', 'dead', 'orphaned'] as const)
      metrics.ringShards.set({ ring, state }, counts.get(state) ?? 0);
    return available.sort();
  }

  /** Monotonic time `shard` was first seen dead; undefined for a live or unknown shard. */
  deadSince(shard: string): number | undefined {
    return this.#deadSince.get(shard);
  }

  /** The Lease's state after taking it over when it expired, its state label written. */
  async #settle(lease: V1Lease): Promise<ShardState> {
    const now = this.#o.clock.now();
    let state = shardStateOf(lease, now);
    try {
      if (isAvailable(state) && this.#expiredHere(lease)) {
        await this.#takeOver(lease);
        state = 'dead';
      } else if (state === 'orphaned') {
        await this.#o.client.delete(lease, {
          preconditions: { resourceVersion: lease.metadata?.resourceVersion ?? '' },
        });
      } else if (lease.metadata?.labels?.[STATE_LABEL] !== state) {
        await this.#label(lease, state);
      }
    } catch (err) {
      // A newer Lease (a renewal raced us) or one already gone: the next check reads it again.
      if (!isConflict(err) && !isNotFound(err))
        this.#o.logger.error('failed to update shard lease', { lease: lease.metadata?.name, err });
    }
    return state;
  }

  /** True once the Lease has not been renewed for its duration since the sharder saw it renewed. */
  #expiredHere(lease: V1Lease): boolean {
    const name = lease.metadata?.name ?? '';
    const spec = lease.spec;
    const record = `${spec?.holderIdentity ?? ''}|${String(spec?.renewTime ?? '')}|${spec?.leaseDurationSeconds ?? ''}`;
    const now = this.#o.clock.monotonic();
    const seen = this.#seen.get(name);
    if (seen?.record !== record) {
      this.#seen.set(name, { record, at: now });
      return false;
    }
    return now - seen.at >= (lease.spec?.leaseDurationSeconds ?? 15) * 1000;
  }

  /**
   * Declares the shard dead by taking its Lease, with the resourceVersion read: the write fails if
   * the shard renewed meanwhile. The shard's elector then cannot renew and, when it comes back,
   * waits out this lease duration before it holds its Lease again.
   */
  async #takeOver(lease: V1Lease): Promise<void> {
    const now = new MicroTimeDate(this.#o.clock.now());
    this.#o.logger.info('shard lease expired, declaring the shard dead', { shard: lease.metadata?.name });
    await this.#o.client.update({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        ...lease.metadata,
        labels: { ...lease.metadata?.labels, [STATE_LABEL]: 'dead' },
      },
      spec: {
        ...lease.spec,
        holderIdentity: SHARDER_IDENTITY,
        acquireTime: now,
        renewTime: now,
        leaseTransitions: (lease.spec?.leaseTransitions ?? 0) + 1,
      },
    } satisfies V1Lease);
  }

  async #label(lease: V1Lease, state: ShardState): Promise<void> {
    await this.#o.client.patch(lease, {
      type: 'merge',
      body: {
        metadata: { resourceVersion: lease.metadata?.resourceVersion, labels: { [STATE_LABEL]: state } },
      },
    });
  }
}
