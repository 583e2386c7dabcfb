import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Manager } from '../../../src/runtime/manager/manager.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { suiteEnvironment } from '../../support/suite-environment.ts';
import { runInBackground, testManager } from '../controller/support.ts';
import { overlaps, type Interval } from './shards.ts';

const OBJECTS = 300;
const NAMESPACE = 'ranged';
/** Short enough for a test, in client-go's proportions. */
const LEASE = { leaseDuration: 4000, renewDeadline: 3000, retryPeriod: 300 };
const CONVERGE_MS = 120_000;

/**
 * ConfigMaps, not a custom resource: kube-apiserver 1.37 filters custom resources by the shard
 * selector too but echoes it only on built-in kinds' lists (an unstructured list has no
 * shardInfo), so only a built-in kind shows the server applying it.
 */

/** One shard of the ring in this process, and its background run. */
interface RunningShard {
  readonly name: string;
  readonly mgr: Manager;
  readonly stop: () => Promise<void>;
}

for (const gate of [true, false]) {
  describe(`server-side shard selection, ConfigMaps, ShardedListAndWatch ${gate ? 'on' : 'off (filtered here)'}`, () => {
    const intervals: Interval[] = [];
    const running = new Map<string, RunningShard>();

    after(async () => {
      for (const shard of running.values()) await shard.stop();
    });
    const api = suiteEnvironment({ apiServerArgs: gate ? ['--feature-gates=ShardedListAndWatch=true'] : [] });
    before(async () => {
      const { client } = api;
      await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
      for (let i = 0; i < OBJECTS; i++) {
        await client.create({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `widget-${i}`, namespace: NAMESPACE },
        });
      }
    });

    async function startShard(name: string): Promise<void> {
      const mgr = await testManager(api.env, {
        namespace: NAMESPACE,
        leaderElection: true,
        leaderElectionId: 'widgets-sharder',
        leaderElectionNamespace: NAMESPACE,
        ...LEASE,
        sharding: { ring: 'widgets', shardName: name, selection: 'server' },
      });
      mgr
        .controller()
        .for(ConfigMapKind)
        .sharded()
        .complete({
          reconcile: async (req) => {
            const interval: Interval = { shard: name, name: req.name, start: performance.now() };
            intervals.push(interval);
            await new Promise((resolve) => setTimeout(resolve, 5));
            interval.end = performance.now();
            return {};
          },
        });
      running.set(name, { name, mgr, ...runInBackground(mgr) });
    }

    /** The test's ConfigMaps in each shard's cache. */
    function cached(): Map<string, string[]> {
      const held = new Map<string, string[]>();
      for (const { name, mgr } of running.values()) {
        const store = mgr.cache.informerFor(ConfigMapKind).store;
        held.set(
          name,
          [...store.values()].map((w) => w.metadata?.name ?? '').filter((n) => n.startsWith('widget-')),
        );
      }
      return held;
    }

    /** Every test ConfigMap cached by exactly one running shard, which reconciled it; each shard holding some. */
    async function converged(): Promise<Map<string, string[]>> {
      let last = new Map<string, string[]>();
      await eventuallyTrue(
        async () => {
          last = cached();
          const all = [...last.values()].flat();
          return (
            all.length === OBJECTS &&
            new Set(all).size === OBJECTS &&
            [...last].every(
              ([shard, names]) =>
                names.length > 0 &&
                names.every((n) => intervals.some((i) => i.shard === shard && i.name === n && i.end)),
            )
          );
        },
        `every ConfigMap cached and reconciled by exactly one of ${[...running.keys()].join(', ')}`,
        CONVERGE_MS,
      );
      return last;
    }

    it('splits the ConfigMaps over 3 shards in disjoint ranges, each cache holding its share only', async (t) => {
      for (const name of ['shard-a', 'shard-b', 'shard-c']) await startShard(name);
      const held = await converged();
      t.diagnostic(`per shard: ${JSON.stringify([...held].map(([s, n]) => [s, n.length]))}`);
      for (const { mgr } of running.values()) {
        const metrics = await (await fetch(`${mgr.metricsUrl ?? ''}/metrics`)).text();
        assert.match(
          metrics,
          new RegExp(`sharding_server_side_selection\\{ring="widgets",kind="ConfigMap"\\} ${gate ? 1 : 0}`),
          gate
            ? 'the server echoed the selector'
            : 'without the gate no echo comes, and the shard filters itself',
        );
      }
    });

    it('hands ranges over to a joining shard and back from one that stops, never reconciling one twice at once', async () => {
      await startShard('shard-d');
      await converged();
      const d = running.get('shard-d');
      running.delete('shard-d');
      await d?.stop();
      await converged();
      assert.deepEqual(overlaps(intervals).slice(0, 10), []);
    });
  });
}
