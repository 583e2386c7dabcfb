import type { Environment } from '../../../src/envtest/index.ts';
import type { Client } from '../../../src/runtime/client/client.ts';
import type { Clock } from '../../../src/runtime/clock/clock.ts';
import type { RestConfigSource } from '../../../src/runtime/config/rest-config-source.ts';
import { HashRing } from '../../../src/runtime/sharding/hash-ring.ts';
import { ringKeyOf } from '../../../src/runtime/sharding/ring-key.ts';
import { drainLabel, shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { runInBackground, testManager, WidgetKind } from '../controller/support.ts';
import { sharedNow, shardObjects, type Interval } from './shards.ts';

/** The ring of the in-process shards: its Widgets' shard label, and the leader lease of its sharder. */
export const RING = 'widgets';
const SHARD = shardLabel(RING);
const DRAIN = drainLabel(RING);

/** Short leases, so that a ring converges and a dead shard is found within a test's minute. */
export const LEASE_DURATION = 4000;

/** How a shard of the ring runs: its process's clock, and its leases' timing when not the short one. */
export interface ShardRun {
  readonly clock?: Clock;
  readonly leaseDuration?: number;
  readonly renewDeadline?: number;
  /** Where it reaches the API server, when not directly. */
  readonly kubeConfig?: RestConfigSource;
}

/** A shard of the ring run in this process, as a replica's manager runs it. */
export interface InProcessShard {
  readonly name: string;
  /** Settles when the manager has stopped (rejects when it stopped on an error, a lost lease). */
  readonly done: Promise<void>;
  /** Whether the manager has stopped, on its own or told to. */
  stopped(): boolean;
  stop(): Promise<void>;
  /** How many Widgets its cache holds, from its /metrics (undefined until it serves them). */
  cachedWidgets(): Promise<number | undefined>;
}

/**
 * The shards of one ring in one process, every reconcile of each recorded: shards compete for the
 * sharder's leader lease, as the replicas of a deployment do.
 */
export class InProcessRing {
  readonly intervals: Interval[] = [];
  readonly #env: Environment;
  readonly #namespace: string;

  constructor(env: Environment, namespace: string) {
    this.#env = env;
    this.#namespace = namespace;
  }

  /** Starts shard `name`. */
  async start(name: string, run: ShardRun = {}): Promise<InProcessShard> {
    const { clock, kubeConfig, leaseDuration = LEASE_DURATION, renewDeadline = 2500 } = run;
    const mgr = await testManager(this.#env, {
      namespace: this.#namespace,
      leaderElection: true,
      leaderElectionId: `${RING}-sharder`,
      leaderElectionNamespace: this.#namespace,
      leaseDuration,
      renewDeadline,
      retryPeriod: 500,
      sharding: { ring: RING, shardName: name },
      ...(clock ? { clock } : {}),
      ...(kubeConfig ? { kubeConfig } : {}),
    });
    mgr
      .controller()
      .for(WidgetKind)
      .sharded()
      .complete({
        reconcile: async (req) => {
          const interval: Interval = { shard: name, name: req.name, start: sharedNow() };
          this.intervals.push(interval);
          await new Promise((resolve) => setTimeout(resolve, 5));
          interval.end = sharedNow();
          return {};
        },
      });
    const running = runInBackground(mgr);
    let stopped = false;
    running.done.catch(() => undefined).finally(() => (stopped = true));
    const cachedWidgets = async (): Promise<number | undefined> => {
      const url = mgr.metricsUrl;
      if (!url) return undefined;
      return shardObjects(await (await fetch(`${url}/metrics`)).text(), WidgetKind.kind);
    };
    return { name, done: running.done, stopped: () => stopped, stop: running.stop, cachedWidgets };
  }

  /** Whether shard `name` has finished a reconcile of Widget `widget`. */
  reconciled(name: string, widget: string): boolean {
    return this.intervals.some((i) => i.shard === name && i.name === widget && i.end !== undefined);
  }
}

/** Each Widget of `namespace` and its shard label (undefined when unassigned or draining). */
export async function assignments(
  client: Client,
  namespace: string,
): Promise<Map<string, string | undefined>> {
  const widgets = await client.direct().listAll(WidgetKind, { namespace });
  return new Map(
    widgets.map((w) => {
      const labels = w.metadata?.labels ?? {};
      return [w.metadata?.name ?? '', labels[DRAIN] === undefined ? labels[SHARD] : undefined];
    }),
  );
}

/**
 * Waits (up to `timeoutMs`) until every Widget of `namespace` is on the shard the ring of `live`
 * hashes it to, and reconciled there by the shards of `ring` (in this process or shard processes):
 * where the sharder ends. Only "on some live shard" would pass early, while the sharder is still
 * carrying out a change (a shard joined while the moves of the one before were in flight, or a
 * resync that lost races has yet to run again), and its last moves would then land in the next
 * test. Returns the assignments.
 */
export async function convergedOn(
  client: Client,
  namespace: string,
  ring: Pick<InProcessRing, 'reconciled'>,
  live: readonly string[],
  timeoutMs?: number,
): Promise<Map<string, string | undefined>> {
  const hashRing = new HashRing(live);
  const home = (name: string): string | undefined =>
    hashRing.shardFor(ringKeyOf(WidgetKind, { metadata: { namespace, name } }));
  let last = new Map<string, string | undefined>();
  await eventuallyTrue(
    async () => {
      last = await assignments(client, namespace);
      return [...last].every(
        ([name, shard]) => shard !== undefined && shard === home(name) && ring.reconciled(shard, name),
      );
    },
    `every Widget on its shard of ${live.join(', ')} and reconciled there`,
    timeoutMs,
  );
  return last;
}

/** Creates Widgets `${prefix}-0` to `${prefix}-${count - 1}` in `namespace`. */
export async function createWidgets(
  client: Client,
  namespace: string,
  prefix: string,
  count: number,
): Promise<void> {
  for (let i = 0; i < count; i++)
    await client.create({
      apiVersion: WidgetKind.apiVersion,
      kind: WidgetKind.kind,
      metadata: { name: `${prefix}-${i}`, namespace },
      spec: { size: 1 },
    });
}

/** Waits until each of `shards`' caches holds exactly the Widgets of `namespace` labelled with it. */
export async function cachesHoldShares(
  client: Client,
  namespace: string,
  shards: Iterable<InProcessShard>,
): Promise<void> {
  const assigned = await assignments(client, namespace);
  for (const shard of shards) {
    const share = [...assigned.values()].filter((s) => s === shard.name).length;
    await eventuallyTrue(
      async () => (await shard.cachedWidgets()) === share,
      `${shard.name}'s cache to hold its ${share} Widgets only`,
    );
  }
}
