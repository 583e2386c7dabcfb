import type { V1Lease } from '@kubernetes/client-node';
import type { Json, JsonInput } from '../api/json.ts';
import type { SharedInformer } from '../cache/informer.ts';
import { isAlreadyExists, isConflict, isNotFound } from '../client/api-error.ts';
import type { Client } from '../client/client.ts';
import { MicroTimeDate } from '../api/micro-time-date.ts';
import type { Clock } from '../clock/clock.ts';
import { clockTimeout, type ClockTimeout } from '../clock/clock-timeout.ts';
import type { Logger } from '../log/logger.ts';
import {
  HOLDER_PROCESS_ANNOTATION,
  HOLDER_RENEW_TIME_ANNOTATION,
  RING_LABEL,
  SHARDER_IDENTITY,
  STATE_LABEL,
} from './shard-labels.ts';
import { isAvailable, shardStateOf, type ShardState } from './shard-state.ts';
import type { ShardingMetrics } from './sharding-metrics.ts';

/** What {@link RingMembership} reads the Leases with and writes them through. */
export interface RingMembershipOptions {
  readonly ring: string;
  /** The ring's Leases, as the sharder's informer holds them. */
  readonly leases: SharedInformer<Json<V1Lease>>;
  /** Where the Leases are, for one the sharder creates to keep a shard name out. */
  readonly leaseNamespace: string;
  /** How long a Lease the sharder takes over keeps its shard out (ms): the shards' lease duration. */
  readonly holdDuration: number;
  readonly client: Client;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: ShardingMetrics;
  /**
   * The process whose leader Lease this sharder's process took over once it had not been renewed
   * for a lease duration on this process's clock (undefined: none, or released). Its shard's Lease,
   * marked with it and not renewed since its leader Lease, is declared dead without watching it
   * another lease duration.
   */
  readonly expiredProcess?: ExpiredProcess;
  /** The shards' retry period (ms): how much later than its leader Lease a process renews its shard's. */
  readonly retryPeriod: number;
}

/** A process whose leader Lease expired: its identity, and its last renewal as it wrote it. */
export interface ExpiredProcess {
  readonly identity: string;
  /** The leader Lease's last renewTime (ms since the epoch), on that process's clock. */
  readonly renewTime: number;
}

/**
 * Whether a shard's objects may be moved at once, must be drained (it is live), or neither yet. A
 * move is sent, and sent again, only until `deadline` aborts: after it, the shard may be back.
 */
export type MoveAway =
  { readonly action: 'move'; readonly deadline: AbortSignal } | { readonly action: 'drain' | 'retry' };

/**
 * A shard's Lease the sharder holds: its last takeover sent at `since` (monotonic), moves allowed
 * until `deadline` aborts, half a hold duration after the last takeover that landed.
 */
interface Hold {
  readonly since: number;
  /** Carried over to the next hold while this one is in force, so that the moves in flight go on. */
  readonly deadline: AbortController;
  /** Aborts `deadline`; replaced when a takeover lands before it. */
  readonly timer: ClockTimeout;
  /** The Lease as the takeover left it: what a renewal writes over. */
  readonly lease: Json<V1Lease>;
  /**
   * Takeovers in a row without a move, each sent while the one before still kept the shard out: a
   * long move list outlives many holds, and only holds that moved nothing count.
   */
  readonly takeovers: number;
  /** Whether an object of the shard was moved during this hold. */
  moved: boolean;
}

/**
 * Takeovers in a row, none of them followed by a move, after which the sharder lets a shard's Lease expire, so that a shard coming
 * back is not kept out for as long as one of its objects cannot be moved (an admission refusing
 * the write): back, it hands that object over by a drain.
 */
const MAX_TAKEOVERS = 3;

/** When the sharder last saw a Lease's holder renew it, on its own monotonic clock. */
interface Observation {
  /** Holder, renew time and duration: labels the sharder writes do not count as a renewal. */
  readonly record: string;
  readonly at: number;
  /** The Lease's duration (ms): it expires here `at` plus this, unless renewed. */
  readonly duration: number;
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
 *
 * A shard's objects move without a drain only while the sharder holds its Lease: taken over, the
 * Lease keeps the shard out for a lease duration (its elector waits that long for the Lease to
 * expire), so a shard that comes back (a released Lease re-acquired by a restarted pod of the same
 * name) cannot reconcile an object the sharder is moving away from it.
 */
export class RingMembership {
  readonly #o: RingMembershipOptions;
  readonly #seen = new Map<string, Observation>();
  /** Monotonic time each shard was first seen dead, for the hand-over metric. */
  readonly #deadSince = new Map<string, number>();
  /** Each shard's Lease takeover: the shard is out for a hold duration from when it was sent. */
  readonly #held = new Map<string, Hold>();
  readonly #holding = new Map<string, Promise<MoveAway>>();
  /** The shards whose hold is being renewed ahead of its deadline. */
  readonly #renewing = new Set<string>();
  /** Set by close: a takeover landing after it starts no timer. */
  #closed = false;

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
    for (const name of this.#deadSince.keys()) if (!present.has(name)) this.#deadSince.delete(name);
    for (const state of ['ready', 'expired', 'uncertain', 'dead', 'orphaned'] as const)
      metrics.ringShards.set({ ring, state }, counts.get(state) ?? 0);
    return available.sort();
  }

  /**
   * Milliseconds until the soonest a shard seen renewing may be declared dead, so that the check
   * runs then and not up to a retry period later; undefined when no such shard is waiting.
   */
  nextExpiryIn(): number | undefined {
    const now = this.#o.clock.monotonic();
    let soonest: number | undefined;
    for (const seen of this.#seen.values()) {
      const left = seen.at + seen.duration - now;
      if (left > 0 && (soonest === undefined || left < soonest)) soonest = left;
    }
    return soonest;
  }

  /** A move of an object of `shard` landed: its hold made progress, and the next takeover starts a new row. */
  noteMoved(shard: string): void {
    const held = this.#held.get(shard);
    if (held) held.moved = true;
  }

  /** The shards the last check found dead (their Lease released, taken over, or orphaned). */
  deadShards(): string[] {
    return [...this.#deadSince.keys()];
  }

  /** Monotonic time `shard` was first seen dead; undefined for a live or unknown shard. */
  deadSince(shard: string): number | undefined {
    return this.#deadSince.get(shard);
  }

  /**
   * Whether the objects of `shard` may be moved now without a drain: only while the sharder holds
   * the shard's Lease, taken over less than half a hold duration ago (the rest is the margin for
   * the move's write to land), taking it over (again) when not. 'drain' when the shard holds it.
   * A hold that moved objects is renewed a quarter of the way in, while the moves go on: a long
   * move list then runs through without a gap, and no move is given up at the end of a half-hold.
   */
  async moveAway(shard: string): Promise<MoveAway> {
    const held = this.#movable(shard);
    if (held) return held;
    // One takeover per shard at a time: the concurrent moves' own would only conflict.
    let holding = this.#holding.get(shard);
    if (!holding) {
      holding = this.#hold(shard).finally(() => this.#holding.delete(shard));
      this.#holding.set(shard, holding);
    }
    return holding;
  }

  async #hold(shard: string): Promise<MoveAway> {
    const { clock, leaseNamespace } = this.#o;
    const lease = this.#o.leases.store.get(`${leaseNamespace}/${shard}`);
    if (lease && isAvailable(shardStateOf(lease, clock.now()))) return { action: 'drain' };
    if (this.#letBack(shard)) return { action: 'retry' };
    try {
      await (lease ? this.#takeOver(lease) : this.#createHeld(shard));
      return this.#movable(shard) ?? { action: 'retry' };
    } catch (err) {
      if (!isConflict(err) && !isNotFound(err) && !isAlreadyExists(err))
        this.#o.logger.error('failed to hold shard lease', { lease: shard, err });
      return { action: 'retry' };
    }
  }

  /** Stops the deadlines' timers: the sharder is done. */
  close(): void {
    this.#closed = true;
    for (const shard of [...this.#held.keys()]) this.#release(shard);
  }

  /**
   * True while `shard` is let back after its takeovers in a row: for two hold durations after the
   * last, one for its Lease to expire and one for the shard to take it.
   */
  #letBack(shard: string): boolean {
    const held = this.#held.get(shard);
    if (!held || held.takeovers < MAX_TAKEOVERS) return false;
    return this.#o.clock.monotonic() - held.since < 2 * this.#o.holdDuration;
  }

  /** 'move' while the hold of `shard` leaves the margin for a move's write to land. */
  #movable(shard: string): MoveAway | undefined {
    const held = this.#held.get(shard);
    const { clock, holdDuration } = this.#o;
    const age = clock.monotonic() - (held?.since ?? 0);
    if (!held || held.deadline.signal.aborted || age >= holdDuration / 2) return undefined;
    if (held.moved && age >= holdDuration / 4) this.#renew(shard, held);
    return { action: 'move', deadline: held.deadline.signal };
  }

  /**
   * Takes the Lease over again, from the Lease as the hold's takeover left it, in the background:
   * it fails (a conflict) when anyone else wrote the Lease since, and the hold then ends at its
   * deadline as it would have.
   */
  #renew(shard: string, held: Hold): void {
    if (this.#renewing.has(shard)) return;
    this.#renewing.add(shard);
    void this.#takeOver(held.lease)
      .catch((err: unknown) => {
        if (!isConflict(err) && !isNotFound(err))
          this.#o.logger.error('failed to renew the hold of a shard lease', { lease: shard, err });
      })
      .finally(() => this.#renewing.delete(shard));
  }

  /**
   * Notes the hold of `shard`'s Lease, its takeover sent at `since`, leaving `lease`: a move's
   * write neither goes nor goes again (a 429's retry, say) after half the hold, which keeps the
   * other half as the margin for a write the server has already taken to land before the shard
   * may be back. A hold still in force is extended: the writes in flight under it go on.
   */
  #noteHeld(shard: string, since: number, lease: Json<V1Lease>): void {
    if (this.#closed) return;
    const { clock, holdDuration } = this.#o;
    const before = this.#held.get(shard);
    const inARow = before !== undefined && since - before.since < holdDuration && !before.moved;
    const takeovers = inARow ? before.takeovers + 1 : 1;
    if (takeovers === MAX_TAKEOVERS)
      this.#o.logger.info('last takeover of the shard lease in a row: the shard may come back after it', {
        shard,
      });
    const inForce = before !== undefined && !before.deadline.signal.aborted;
    const deadline = inForce ? before.deadline : new AbortController();
    before?.timer.clear();
    const timer = clockTimeout(clock, since + holdDuration / 2 - clock.monotonic());
    timer.signal.addEventListener(
      'abort',
      () =>
        deadline.abort(new Error(`the sharder's hold of shard ${shard}'s Lease is too short for this move`)),
      { once: true },
    );
    this.#held.set(shard, { since, deadline, timer, lease, takeovers, moved: false });
  }

  #release(shard: string): void {
    this.#held.get(shard)?.timer.clear();
    this.#held.delete(shard);
  }

  /** The Lease's state after taking it over when it expired, its state label written. */
  async #settle(lease: Json<V1Lease>): Promise<ShardState> {
    const now = this.#o.clock.now();
    let state = shardStateOf(lease, now);
    try {
      if (isAvailable(state) && this.#expiredHere(lease)) {
        await this.#takeOver(lease);
        state = 'dead';
      } else if (state === 'orphaned') {
        this.#release(lease.metadata?.name ?? '');
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
  #expiredHere(lease: Json<V1Lease>): boolean {
    const name = lease.metadata?.name ?? '';
    const spec = lease.spec;
    const record = `${spec?.holderIdentity ?? ''}|${spec?.renewTime ?? ''}|${spec?.leaseDurationSeconds ?? ''}`;
    const now = this.#o.clock.monotonic();
    const seen = this.#seen.get(name);
    if (seen?.record !== record) {
      const duration = (spec?.leaseDurationSeconds ?? 15) * 1000;
      // First seen, held by the process whose leader Lease expired here: watched for long enough.
      const gone = seen === undefined && this.#heldByExpiredProcess(lease, duration);
      this.#seen.set(name, { record, at: gone ? now - duration : now, duration });
      return gone;
    }
    return now - seen.at >= seen.duration;
  }

  /**
   * Whether the shard's Lease was last renewed by the process whose leader Lease expired here, not
   * long after its leader Lease. It renews both every retry period, each on its own timer, so its
   * last shard renewal may come up to one retry period (and a little) after its last leader
   * renewal: two are allowed, so that a dead process is never missed for its timers' phase. A
   * process still renewing its shard (draining it, or another writer that kept its mark) has
   * renewed it at least a lease duration less one retry period after its leader Lease, since that
   * expired here: the slack stays a retry period below that. Both times must be written on that
   * process's clock, so the comparison needs no agreement between clocks: the Lease's renewTime
   * must be the one the process wrote next to its mark. A writer that kept the mark and renewed
   * the Lease since (on its own clock) leaves another, and the Lease is watched as any other.
   */
  #heldByExpiredProcess(lease: Json<V1Lease>, duration: number): boolean {
    const process = this.#o.expiredProcess;
    if (
      process === undefined ||
      lease.spec?.holderIdentity !== lease.metadata?.name ||
      lease.metadata?.annotations?.[HOLDER_PROCESS_ANNOTATION] !== process.identity
    )
      return false;
    const renewed = Date.parse(lease.spec?.renewTime ?? '');
    const renewedByProcess = Date.parse(lease.metadata?.annotations?.[HOLDER_RENEW_TIME_ANNOTATION] ?? '');
    if (Number.isNaN(renewed) || renewed !== renewedByProcess) return false;
    const slack = Math.min(2 * this.#o.retryPeriod, duration - 2 * this.#o.retryPeriod);
    return renewed <= process.renewTime + slack;
  }

  /**
   * Declares the shard dead by taking its Lease, with the resourceVersion read: the write fails if
   * the shard renewed meanwhile. The shard's elector then cannot renew and, when it comes back,
   * waits out this lease duration before it holds its Lease again.
   */
  async #takeOver(lease: Json<V1Lease>): Promise<void> {
    const { clock, holdDuration } = this.#o;
    const sent = clock.monotonic();
    const now = new MicroTimeDate(clock.now());
    const name = lease.metadata?.name ?? '';
    if (lease.spec?.holderIdentity !== SHARDER_IDENTITY)
      this.#o.logger.info('declaring the shard dead, holding its lease', { shard: name });
    const held = await this.#o.client.update({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        ...lease.metadata,
        labels: { ...lease.metadata?.labels, [STATE_LABEL]: 'dead' },
      },
      spec: {
        ...lease.spec,
        holderIdentity: SHARDER_IDENTITY,
        // A released Lease says 1 s: the shard must stay out for as long as the moves may take.
        leaseDurationSeconds: Math.max(lease.spec?.leaseDurationSeconds ?? 0, Math.ceil(holdDuration / 1000)),
        acquireTime: now,
        renewTime: now,
        leaseTransitions: (lease.spec?.leaseTransitions ?? 0) + 1,
      },
    } satisfies JsonInput<V1Lease>);
    this.#noteHeld(name, sent, held);
  }

  /** A Lease held by the sharder for a shard that has none, which objects still name. */
  async #createHeld(shard: string): Promise<void> {
    const { clock, holdDuration, leaseNamespace, ring } = this.#o;
    const sent = clock.monotonic();
    const now = new MicroTimeDate(clock.now());
    const held = await this.#o.client.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: shard,
        namespace: leaseNamespace,
        labels: { [RING_LABEL]: ring, [STATE_LABEL]: 'dead' },
      },
      spec: {
        holderIdentity: SHARDER_IDENTITY,
        leaseDurationSeconds: Math.ceil(holdDuration / 1000),
        acquireTime: now,
        renewTime: now,
      },
    } satisfies V1Lease);
    this.#noteHeld(shard, sent, held);
  }

  async #label(lease: Json<V1Lease>, state: ShardState): Promise<void> {
    await this.#o.client.patch(lease, {
      type: 'merge',
      body: {
        metadata: { resourceVersion: lease.metadata?.resourceVersion, labels: { [STATE_LABEL]: state } },
      },
    });
  }
}
