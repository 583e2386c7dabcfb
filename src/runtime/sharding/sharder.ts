import type { V1Lease } from '@kubernetes/client-node';
import type { Json } from '../api/json.ts';
import type { KubeObject } from '../api/kube-object.ts';
import type { Registry } from 'prom-client';
import { Backoff } from '../cache/backoff.ts';
import type { SharedInformer } from '../cache/informer.ts';
import { isConflict, isNotFound } from '../client/api-error.ts';
import { ApiReader } from '../client/api-reader.ts';
import type { Client } from '../client/client.ts';
import type { Kind } from '../client/kind.ts';
import { keyString, objectKey } from '../client/object-key.ts';
import { mergePatch } from '../client/patch.ts';
import type { Transport } from '../client/transport.ts';
import type { Clock } from '../clock/clock.ts';
import { WakeablePause } from '../clock/wakeable-pause.ts';
import type { Logger } from '../log/logger.ts';
import { workqueueMetricsProviderFor } from '../workqueue/prometheus-workqueue-metrics-provider.ts';
import { Workqueue } from '../workqueue/workqueue.ts';
import { HashRing } from './hash-ring.ts';
import { controllerOf, controllerRingKeyOf, ringKeyOf } from './ring-key.ts';
import { ringKindOfOwner, type RingKind } from './ring-kind.ts';
import { RingMembership, type ExpiredProcess, type MoveAway } from './ring-membership.ts';
import { ringLeaseInformer, sharderKinds, unassignedCache } from './sharder-cache.ts';
import { drainLabel, isLabelValue, shardLabel } from './shard-labels.ts';
import { shardingMetrics, type ShardingMetrics } from './sharding-metrics.ts';

/** What a {@link Sharder} manages and how. Durations are in milliseconds. */
export interface SharderOptions {
  readonly ring: string;
  readonly kinds: readonly RingKind[];
  /** Where the shards' Leases are. */
  readonly leaseNamespace: string;
  /** Shard objects of this namespace only. Default: '' (all namespaces). */
  readonly namespace: string;
  /** Writes with the shards' field manager, so server-side applies of the shard label never conflict. */
  readonly client: Client;
  readonly transport: Transport;
  /** How often the Leases are checked. */
  readonly retryPeriod: number;
  /** The shards' lease duration: how long a Lease the sharder takes over keeps its shard out. */
  readonly leaseDuration: number;
  readonly resyncPeriod: number;
  readonly concurrentMoves: number;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly registry: Registry;
  /** See RingMembershipOptions.expiredProcess. */
  readonly expiredProcess?: ExpiredProcess;
  /**
   * The ring's {@link ringLeaseInformer}, started (and stopped) by its owner before this sharder
   * runs, so that it runs warm. Default: one of its own, started when it runs.
   */
  readonly leases?: SharedInformer<Json<V1Lease>>;
}

/** One write the sharder decided on in a resync. */
interface Plan {
  readonly obj: KubeObject;
  readonly kind: Kind;
  readonly action: 'drain' | 'move';
  readonly to?: string;
  /**
   * The objects it controls, on their way to its new shard: moved before it (a move), or before
   * it is assigned anew (a drain), so that its new shard's cache holds them when it first
   * reconciles it. Otherwise its reconcile there finds none and creates them: AlreadyExists.
   */
  readonly children?: readonly Child[];
}

/** An object a ring kind's object controls, as the resync listed it. */
interface Child {
  readonly obj: KubeObject;
  readonly kind: Kind;
}

/** The shortest pause between resyncs asked for by events, so that a burst of them lists once. */
const RESYNC_DEBOUNCE_MS = 1000;
/**
 * The longest pause after resyncs in a row that each had a write refused (an admission policy, a
 * webhook down): they double from RESYNC_DEBOUNCE_MS up to this, as a rate-limited queue's retries
 * do, instead of listing the whole ring every second for as long as the refusal lasts.
 */
const REFUSED_BACKOFF_MAX_MS = 60_000;
/** How long past a Lease's expiry on this clock its check runs, so that the check finds it expired. */
const EXPIRY_MARGIN_MS = 5;

/**
 * Assigns each object of a ring's kinds to a shard, as the external project's sharder and webhook
 * together: unassigned objects (a label-selected watch of those without the shard label, so it
 * holds only the few waiting) get the shard the ring hashes them to; on a membership change, and
 * every resync period, it lists the kinds and asks a live shard to drain each object that should
 * move (the drain label: the shard lets go, and the object comes back unassigned), moves those of
 * a dead shard at once (while it holds that shard's Lease, checked as each move is written, so a
 * shard back meanwhile gets a drain instead), and moves controlled objects to their owner's shard.
 *
 * It runs in the manager that holds the leader lease, not as a Deployment of its own: the lease
 * already makes it one at a time, it needs no webhook (nor certificates) since assignment is a
 * patch after creation, and it reads metadata only (PartialObjectMetadata, as that project's
 * sharder): it holds the Leases and the unassigned objects' metadata, and lists the ring's
 * metadata, never whole objects, so the leader stays the size of any other shard bar one
 * metadata list at a time.
 */
export class Sharder {
  readonly #o: SharderOptions;
  readonly #metrics: ShardingMetrics;
  readonly #shardLabel: string;
  readonly #drainLabel: string;
  readonly #allKinds: readonly Kind[];
  readonly #queue: Workqueue<string>;
  /** Reads the ring's objects as metadata: labels and owners are all the sharder looks at. */
  readonly #metadata: ApiReader;
  readonly #unassigned = new Map<Kind, SharedInformer<Json<KubeObject>>>();
  /** Monotonic time each object's drain was marked, by queue key, for the hand-over metric. */
  readonly #drainMarks = new Map<string, number>();
  /** The controlled objects of each object being drained, by queue key, as the last resync listed them. */
  #drainChildren = new Map<string, readonly Child[]>();
  #ring = new HashRing([]);
  #resyncAt = 0;
  /** When the resync {@link #resyncSoon} asked for is due, and when it was first asked (monotonic). */
  #soonAt = Number.POSITIVE_INFINITY;
  #soonSince: number | undefined;
  /** When the Leases were last checked (monotonic), and the check in flight. */
  #checkedAt = 0;
  /**
   * Whether the resync after a ring change is followed by another one retry period later: a
   * replica whose Lease watch lags may still label a new object for a shard that just died, after
   * that resync listed, and the unassigned watch never sees a labelled object.
   */
  #followUp = false;
  /** Aborts the resync in progress, when the ring changes under it. */
  #resyncing: AbortController | undefined;
  /** Whether the resync in progress had a write refused. */
  #refused = false;
  /** The pauses after resyncs in a row that had a write refused. */
  readonly #refusedBackoff = new Backoff({
    initialMs: RESYNC_DEBOUNCE_MS,
    maxMs: REFUSED_BACKOFF_MAX_MS,
    jitter: 0,
  });
  /** The ring's membership, once the ring's Leases have synced. */
  #membership: RingMembership | undefined;
  /** The shards that left the ring and whose objects a resync has yet to move. */
  readonly #departed = new Set<string>();
  #checking: Promise<void> | undefined;
  /** Ends the pause between checks when a Lease changes, or skips it when one changed meanwhile. */
  readonly #pause: WakeablePause;

  constructor(options: SharderOptions) {
    this.#o = options;
    this.#metrics = shardingMetrics(options.registry);
    this.#shardLabel = shardLabel(options.ring);
    this.#drainLabel = drainLabel(options.ring);
    this.#allKinds = sharderKinds(options.kinds);
    this.#metadata = new ApiReader(options.transport, true);
    this.#pause = new WakeablePause(options.clock);
    this.#queue = new Workqueue<string>({
      name: `sharder-${options.ring}`,
      clock: options.clock,
      metricsProvider: workqueueMetricsProviderFor(options.registry),
    });
  }

  /** Runs until `signal` aborts; failures are logged and retried, never thrown. */
  async run(signal: AbortSignal): Promise<void> {
    // Its abort would never shut the queue down, and a synced Leases' informer given would not wait.
    if (signal.aborted) return;
    const { logger, ring } = this.#o;
    const leases = this.#o.leases ?? ringLeaseInformer(this.#o);
    const unassigned = unassignedCache(this.#o);
    const changed = (): void => {
      this.#pause.wake();
      // A resync in progress (a long list, say) must not hold back a shard's death or arrival.
      if (this.#resyncing && this.#membership)
        this.#checkRing(this.#membership).catch((err: unknown) =>
          logger.error('sharder check of the ring failed', { ring, err }),
        );
    };
    // Removed when it stops: the Leases' informer given outlives this sharder, and serves the next.
    const handler = leases.addEventHandler({ onAdd: changed, onUpdate: changed, onDelete: changed });
    this.#allKinds.forEach((kind, i) => this.#watchUnassigned(unassigned.informerFor(kind), i));
    try {
      if (!this.#o.leases) leases.start(signal);
      unassigned.start(signal);
      signal.addEventListener('abort', () => this.#queue.shutDown(), { once: true });
      // The ring's checks and a gone shard's moves need the Leases only: the unassigned objects
      // are queued as their lists come, and assigned once the ring is known.
      if (!(await leases.waitForSync(signal))) return;
      await this.#runSynced(leases, signal);
    } finally {
      handler.remove();
    }
  }

  /** Runs the ring's checks and the assignments once the ring's Leases have synced. */
  async #runSynced(leases: SharedInformer<Json<V1Lease>>, signal: AbortSignal): Promise<void> {
    const { logger, leaseNamespace, ring } = this.#o;
    const membership = new RingMembership({
      ring,
      leases,
      leaseNamespace,
      holdDuration: this.#o.leaseDuration,
      client: this.#o.client,
      clock: this.#o.clock,
      logger,
      metrics: this.#metrics,
      retryPeriod: this.#o.retryPeriod,
      ...(this.#o.expiredProcess === undefined ? {} : { expiredProcess: this.#o.expiredProcess }),
    });
    this.#membership = membership;
    const workers = Array.from({ length: this.#o.concurrentMoves }, () => this.#assignLoop(membership));
    try {
      await this.#watchRing(membership, signal);
      await Promise.all(workers);
    } finally {
      membership.close();
    }
  }

  #watchUnassigned(informer: SharedInformer<Json<KubeObject>>, index: number): void {
    this.#unassigned.set(informer.kind, informer);
    const add = (obj: KubeObject): void => this.#queue.add(`${index}|${keyString(objectKey(obj))}`);
    informer.addEventHandler({ onAdd: add, onUpdate: (_old, obj) => add(obj) });
  }

  /** Checks the Leases every retry period or on their change, and resyncs when the ring changed or is due. */
  async #watchRing(membership: RingMembership, signal: AbortSignal): Promise<void> {
    const { clock, retryPeriod, logger } = this.#o;
    while (!signal.aborted) {
      await this.#checkRing(membership);
      const ring = this.#ring;
      if (clock.monotonic() >= Math.min(this.#resyncAt, this.#soonAt)) {
        // A sooner resync asked for while this one runs (a drained object assigned, whose
        // controlled objects must follow) lowers these, and is kept below.
        this.#resyncAt = Number.POSITIVE_INFINITY;
        this.#soonAt = Number.POSITIVE_INFINITY;
        this.#soonSince = undefined;
        // A failed resync is tried again a retry period later; one with a write that lost a race
        // (a newer object), shortly; one cut short by a change of the ring, at once (below).
        const resyncing = new AbortController();
        this.#resyncing = resyncing;
        this.#refused = false;
        const next = await this.#resync(membership, ring, AbortSignal.any([signal, resyncing.signal]))
          .then(
            // Cut short by a change of the ring: the pause is not taken, nor the backoff moved on.
            (settled) => (this.#ring !== ring ? 0 : settled ? this.#settledPause() : this.#unsettledPause()),
            (err: unknown) => {
              if (signal.aborted || this.#ring !== ring) return 0;
              logger.error('sharder resync failed', { ring: this.#o.ring, err });
              // Not backed off: the list that failed may be the one that finds a gone shard's
              // objects, which no shard reconciles until they move.
              return retryPeriod;
            },
          )
          .finally(() => (this.#resyncing = undefined));
        // A ring changed meanwhile is resynced at once.
        if (this.#ring === ring) {
          const due = clock.monotonic() + (this.#followUp ? Math.min(next, retryPeriod) : next);
          this.#resyncAt = Math.min(this.#resyncAt, due);
          this.#followUp = false;
        }
      }
      // A shard's Lease expiring makes no event: the check is timed for it, not the next period;
      // and a resync due sooner (after a lost race) runs when due.
      const expiry = membership.nextExpiryIn();
      const due = Math.min(this.#resyncAt, this.#soonAt) - clock.monotonic();
      const wait = Math.max(0, Math.min(retryPeriod, (expiry ?? Infinity) + EXPIRY_MARGIN_MS, due));
      await this.#pause.pause(wait, signal);
    }
  }

  /** The pause after a resync that settled everything: the resync period; refusals are over. */
  #settledPause(): number {
    this.#refusedBackoff.reset();
    return this.#o.resyncPeriod;
  }

  /**
   * The pause after a resync that left work: a write that lost a race is tried again shortly; one
   * refused again and again waits longer each time (the ring changing starts afresh).
   */
  #unsettledPause(): number {
    if (this.#refused) return this.#refusedBackoff.next();
    this.#refusedBackoff.reset();
    return RESYNC_DEBOUNCE_MS;
  }

  /**
   * Reads the Leases, one check at a time: a changed ring is taken at once (by the assignments
   * too) and resynced. Also called between the writes of a long resync, so that a shard joining or
   * dying meanwhile is seen within a retry period, not once every planned write is done.
   */
  async #checkRing(membership: RingMembership): Promise<void> {
    this.#checking ??= (async () => {
      const ring = new HashRing(await membership.check());
      this.#checkedAt = this.#o.clock.monotonic();
      if (ring.sameShards(this.#ring)) return;
      this.#o.logger.info('ring changed', { ring: this.#o.ring, shards: ring.shards });
      // A new sharder's first ring has no shards before it: the dead Leases tell which left.
      for (const shard of [...this.#ring.shards, ...membership.deadShards()])
        if (!ring.shards.includes(shard)) this.#departed.add(shard);
      for (const shard of ring.shards) this.#departed.delete(shard);
      this.#ring = ring;
      this.#resyncAt = 0;
      this.#refusedBackoff.reset();
      this.#followUp = true;
      // Planned for the ring before: what it still lists or writes is left to the next one.
      this.#resyncing?.abort();
      this.#requeueUnassigned();
    })().finally(() => (this.#checking = undefined));
    await this.#checking;
  }

  /** The unassigned objects seen while no shard was there get another try. */
  #requeueUnassigned(): void {
    this.#allKinds.forEach((kind, i) => {
      for (const key of this.#unassigned.get(kind)?.store.keys() ?? []) this.#queue.add(`${i}|${key}`);
    });
  }

  async #assignLoop(membership: RingMembership): Promise<void> {
    for (;;) {
      const item = await this.#queue.get();
      if (item.shutdown) return;
      try {
        await this.#assign(item.key, membership);
        this.#queue.forget(item.key);
      } catch (err) {
        if (!isNotFound(err)) {
          if (!isConflict(err)) this.#o.logger.error('failed to assign object', { key: item.key, err });
          this.#queue.addRateLimited(item.key);
        }
      } finally {
        this.#queue.done(item.key);
      }
    }
  }

  /** Gives the unassigned object of queue key `item` its shard. */
  async #assign(item: string, membership: RingMembership): Promise<void> {
    const bar = item.indexOf('|');
    const kind = this.#allKinds[Number(item.slice(0, bar))];
    const obj = kind && this.#unassigned.get(kind)?.store.get(item.slice(bar + 1));
    if (!kind || !obj || obj.metadata?.labels?.[this.#shardLabel] !== undefined) return;
    const shard = await this.#shardOf(kind, obj, membership);
    if (!shard) return;
    const children = this.#drainChildren.get(item);
    if (children) {
      // A child left behind moves on its own in the next resync: soon, not a resync period later.
      if (!(await this.#moveChildren(obj, children, shard))) this.#resyncSoon();
      this.#drainChildren.delete(item);
    }
    await this.#write(obj, { [this.#shardLabel]: shard, [this.#drainLabel]: null });
    this.#metrics.assignments.inc(this.#kindLabels(kind));
    const marked = this.#drainMarks.get(item);
    if (marked !== undefined) {
      this.#drainMarks.delete(item);
      this.#metrics.handoverSeconds.observe(
        { ring: this.#o.ring },
        (this.#o.clock.monotonic() - marked) / 1000,
      );
      // Controlled objects the last resync did not list (created since) follow in the next one.
      this.#resyncSoon();
    }
  }

  /**
   * Asks for a resync shortly: a debounce after the last such request, and at the latest a retry
   * period after the first since the last resync, so that a burst of them (a join's drained
   * objects, assigned one after the other) lists the ring once a retry period, not once a debounce.
   */
  #resyncSoon(): void {
    const now = this.#o.clock.monotonic();
    this.#soonSince ??= now;
    this.#soonAt = Math.min(now + RESYNC_DEBOUNCE_MS, this.#soonSince + this.#o.retryPeriod);
    // The loop's pause in progress was timed before this.
    this.#pause.wake();
  }

  /** A ring kind's object hashes by its own key; a controlled one goes to its owner's live shard. */
  async #shardOf(kind: Kind, obj: KubeObject, membership: RingMembership): Promise<string | undefined> {
    if (this.#isRingKind(kind)) return this.#ring.shardFor(ringKeyOf(kind, obj));
    const ref = controllerOf(obj);
    const ownerKind = ref && ringKindOfOwner(this.#o.kinds, ref.apiVersion, ref.kind);
    const ownerKey = ownerKind && controllerRingKeyOf(obj, ownerKind.kind);
    if (!ref || !ownerKind || !ownerKey) return undefined;
    const owner = await this.#metadata.get(ownerKind.kind, {
      namespace: ownerKind.kind.namespaced ? (obj.metadata?.namespace ?? '') : '',
      name: ref.name,
    });
    const ownerShard = owner?.metadata?.labels?.[this.#shardLabel];
    if (
      ownerShard &&
      membership.deadSince(ownerShard) === undefined &&
      this.#ring.shards.includes(ownerShard)
    )
      return ownerShard;
    return this.#ring.shardFor(ownerKey);
  }

  /**
   * Lists every kind of the ring and writes the drains and moves the ring calls for. False when
   * some write lost a race (a newer object): a resync follows shortly.
   */
  async #resync(membership: RingMembership, ring: HashRing, signal: AbortSignal): Promise<boolean> {
    if (ring.shards.length === 0) return true;
    let settled = true;
    // A name that is no label value (a Lease of the ring named so by hand) labels no object; its
    // selector would be refused, and hold back the whole ring's pass for good.
    const departed = [...this.#departed].filter(isLabelValue);
    if (departed.length > 0) {
      // The objects of the shards that left first, listed by their label: their moves need not
      // wait for a list of the whole ring, three times as long with two children each.
      const selector = `${this.#shardLabel} in (${departed.join(',')})`;
      const plans = await this.#plan(ring, new Map(), signal, selector);
      settled = await this.#carryOutAll(plans, membership, ring, signal);
      if (this.#ring !== ring) return false;
      for (const shard of departed) this.#departed.delete(shard);
    }
    const drainChildren = new Map<string, readonly Child[]>();
    const plans = await this.#plan(ring, drainChildren, signal);
    this.#drainChildren = drainChildren;
    return (await this.#carryOutAll(plans, membership, ring, signal)) && settled;
  }

  /** The drains and moves of every ring kind, of the objects `selector` (all when undefined) selects. */
  async #plan(
    ring: HashRing,
    drainChildren: Map<string, readonly Child[]>,
    signal: AbortSignal,
    selector?: string,
  ): Promise<Plan[]> {
    const plans: Plan[] = [];
    for (const ringKind of this.#o.kinds)
      plans.push(...(await this.#planKind(ringKind, ring, drainChildren, signal, selector)));
    return plans;
  }

  /**
   * Writes `plans` in the order planned: each owner with its children, one after the other, and
   * the owners first, so that objects become reconciled on their new shard from the first write
   * on. False when some write lost a race, or the ring changed meanwhile.
   */
  async #carryOutAll(
    plans: readonly Plan[],
    membership: RingMembership,
    ring: HashRing,
    signal: AbortSignal,
  ): Promise<boolean> {
    let settled = true;
    let next = 0;
    const { clock, retryPeriod } = this.#o;
    const worker = async (): Promise<void> => {
      for (let plan = plans[next++]; plan && !signal.aborted; plan = plans[next++]) {
        if (clock.monotonic() - this.#checkedAt >= retryPeriod) await this.#checkRing(membership);
        // Planned for a ring that is no longer: the next resync plans for the new one.
        if (this.#ring !== ring) return;
        if (!(await this.#carryOut(plan, membership))) settled = false;
      }
    };
    await Promise.all(Array.from({ length: this.#o.concurrentMoves }, worker));
    return settled && this.#ring === ring;
  }

  /**
   * The drains and moves of one ring kind and of the objects its objects control. A controlled
   * object of an owner that moves goes with it (before it); of one drained, into `drainChildren`
   * for its assignment; else, when not on its owner's shard, it moves on its own.
   */
  async #planKind(
    ringKind: RingKind,
    ring: HashRing,
    drainChildren: Map<string, readonly Child[]>,
    signal: AbortSignal,
    selector: string | undefined,
  ): Promise<Plan[]> {
    const plans: Plan[] = [];
    const live = new Set(ring.shards);
    /** Where each owner is, or is going at once: where its controlled objects belong. */
    const ownerShards = new Map<string, string>();
    /** The children of each owner that moves or is drained, by its ring key. */
    const handedOver = new Map<string, Child[]>();
    const owners: { plan: Plan; key: string }[] = [];
    for (const obj of await this.#list(ringKind.kind, signal, selector)) {
      const labels = obj.metadata?.labels ?? {};
      const current = labels[this.#shardLabel];
      const key = ringKeyOf(ringKind.kind, obj);
      if (current === undefined) {
        // Drained and let go, or new: its children (a drained one has) go before its assignment.
        handedOver.set(key, []);
        drainChildren.set(this.#queueKey(ringKind.kind, obj), handedOver.get(key) ?? []);
        continue;
      }
      const desired = ring.shardFor(key) ?? current;
      if (!live.has(current)) {
        owners.push({ plan: { obj, kind: ringKind.kind, action: 'move', to: desired }, key });
        ownerShards.set(key, desired);
        handedOver.set(key, []);
        continue;
      }
      ownerShards.set(key, current);
      if (desired === current) continue;
      // Drained already (its shard has yet to let go): its children are still wanted at its assignment.
      if (labels[this.#drainLabel] === undefined)
        owners.push({ plan: { obj, kind: ringKind.kind, action: 'drain' }, key });
      handedOver.set(key, []);
      drainChildren.set(this.#queueKey(ringKind.kind, obj), handedOver.get(key) ?? []);
    }
    const strays: Plan[] = [];
    for (const kind of ringKind.controlled) {
      for (const obj of await this.#list(kind, signal, selector)) {
        const ref = controllerOf(obj);
        if (!ref || ringKindOfOwner([ringKind], ref.apiVersion, ref.kind) === undefined) continue;
        const ownerKey = controllerRingKeyOf(obj, ringKind.kind);
        if (ownerKey === undefined) continue;
        const current = obj.metadata?.labels?.[this.#shardLabel];
        const children = handedOver.get(ownerKey);
        if (children && current !== undefined) {
          children.push({ obj, kind });
          continue;
        }
        const want = ownerShards.get(ownerKey);
        if (want !== undefined && current !== undefined && current !== want)
          strays.push({ obj, kind, action: 'move', to: want });
      }
    }
    for (const { plan, key } of owners)
      plans.push(plan.action === 'move' ? { ...plan, children: handedOver.get(key) ?? [] } : plan);
    return [...plans, ...strays];
  }

  async #list(kind: Kind, signal: AbortSignal, labelSelector: string | undefined): Promise<KubeObject[]> {
    const namespace = this.#o.namespace;
    return this.#metadata.listAll(kind, {
      signal,
      ...(namespace ? { namespace } : {}),
      ...(labelSelector ? { labelSelector } : {}),
    });
  }

  /** One drain or move; false when it lost a race, or left a child of the object behind. */
  async #carryOut(plan: Plan, membership: RingMembership): Promise<boolean> {
    const { obj, kind } = plan;
    const key = this.#queueKey(kind, obj);
    let deadline: AbortSignal | undefined;
    try {
      if (plan.action === 'drain') {
        // Marked before the write: the shard may let go, and the object come back unassigned to
        // be assigned, before this process reads the write's answer.
        this.#drainMarks.set(key, this.#o.clock.monotonic());
        await this.#write(obj, { [this.#drainLabel]: 'true' });
        this.#metrics.drains.inc(this.#kindLabels(kind));
        return true;
      }
      const from = obj.metadata?.labels?.[this.#shardLabel];
      // Planned when its shard was gone; that shard may be back (live) by now: it must let go first.
      const away: MoveAway | undefined =
        from === undefined || !this.#isRingKind(kind) ? undefined : await membership.moveAway(from);
      if (away?.action === 'retry') return false;
      if (away?.action === 'drain') return this.#carryOut({ obj, kind, action: 'drain' }, membership);
      // Past the hold's deadline the shard may be back: the write must not go, or go again, then.
      deadline = away?.action === 'move' ? away.deadline : undefined;
      // A child left behind is a stray: the next resync (this one is not settled) moves it alone.
      const childrenMoved =
        plan.to === undefined ||
        !plan.children ||
        (await this.#moveChildren(obj, plan.children, plan.to, deadline));
      await this.#write(obj, { [this.#shardLabel]: plan.to ?? null, [this.#drainLabel]: null }, deadline);
      this.#metrics.movements.inc(this.#kindLabels(kind));
      if (from !== undefined) membership.noteMoved(from);
      const since = from === undefined ? undefined : membership.deadSince(from);
      if (since !== undefined)
        this.#metrics.handoverSeconds.observe(
          { ring: this.#o.ring },
          (this.#o.clock.monotonic() - since) / 1000,
        );
      return childrenMoved;
    } catch (err) {
      if (plan.action === 'drain') this.#drainMarks.delete(key);
      if (isConflict(err) || isNotFound(err)) return false;
      // The next resync takes the Lease again, or drains the shard that is back.
      if (deadline?.aborted) return false;
      this.#refused = true;
      this.#o.logger.error('failed to move object', {
        kind: kind.kind,
        object: keyString(objectKey(obj)),
        err,
      });
      return false;
    }
  }

  /**
   * Labels `children` with `shard`, their owner's next shard, before the owner: no resourceVersion,
   * for only the sharder writes a controlled object's shard label while its owner is handed over
   * (the old shard no longer reconciles the owner), and a child gone meanwhile is skipped. False
   * when one could not be moved (an admission refusing the write, say): it is logged and left a
   * stray, moved on its own later, for its owner moves anyway, as the external project resyncs
   * each controlled object on its own. Throws only once `signal` aborted: the owner must not move.
   */
  async #moveChildren(
    owner: KubeObject,
    children: readonly Child[],
    shard: string,
    signal?: AbortSignal,
  ): Promise<boolean> {
    // At once: only their owner's write must wait for them all.
    const moved = await Promise.all(
      children.map(async ({ obj, kind }) => {
        if (obj.metadata?.labels?.[this.#shardLabel] === shard) return true;
        try {
          await this.#o.client.patch(
            obj,
            mergePatch({ metadata: { labels: { [this.#shardLabel]: shard } } }),
            signal ? { signal } : {},
          );
          this.#metrics.movements.inc(this.#kindLabels(kind));
          return true;
        } catch (err) {
          if (isNotFound(err)) return true;
          if (signal?.aborted) throw err;
          this.#refused = true;
          this.#o.logger.error(
            'cannot move a controlled object with its owner: its owner moves without it, and it is moved on its own later',
            {
              kind: kind.kind,
              object: keyString(objectKey(obj)),
              owner: keyString(objectKey(owner)),
              shard,
              err,
            },
          );
          return false;
        }
      }),
    );
    return moved.every(Boolean);
  }

  /** A merge patch of the labels, with the resourceVersion read: a newer object wins. */
  async #write(obj: KubeObject, labels: Record<string, string | null>, signal?: AbortSignal): Promise<void> {
    await this.#o.client.patch(
      obj,
      mergePatch({ metadata: { resourceVersion: obj.metadata?.resourceVersion, labels } }),
      signal ? { signal } : {},
    );
  }

  /** A ring kind's own object, reconciled by its shard (a controlled one is only read there). */
  #isRingKind(kind: Kind): boolean {
    return this.#o.kinds.some((k) => k.kind === kind);
  }

  #queueKey(kind: Kind, obj: KubeObject): string {
    return `${this.#allKinds.indexOf(kind)}|${keyString(objectKey(obj))}`;
  }

  #kindLabels(kind: Kind): { ring: string; group: string; kind: string } {
    return { ring: this.#o.ring, group: kind.group, kind: kind.kind };
  }
}
