import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '../../../src/runtime/client/client.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { leadingShard } from '../../../src/runtime/sharding/leading-shard.ts';
import { shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { assignments, convergedOn } from './in-process-ring.ts';
import { ringEnvironment } from './ring-environment.ts';
import { overlaps, sharedNow, shardObjects, ShardProcesses } from './shards.ts';

/**
 * Widgets of the test: 600 take about a minute on 2 busy cores; the 3,000
 * (SHARDING_TEST_WIDGETS=3000) pass in about 5 minutes, and bench/sharding runs them.
 */
const WIDGETS = Number(process.env['SHARDING_TEST_WIDGETS'] ?? '600');
const NAMESPACE = 'sharded';
const SHARD = shardLabel('widgets');
/** Convergence on a busy 2-core machine: generous, and no figure is asserted on it. */
const CONVERGE_MS = 240_000;

describe('sharded controllers across 3 replicas', () => {
  let shards: ShardProcesses;

  after(async () => {
    await shards.stopAll();
  });
  const api = ringEnvironment(NAMESPACE);
  before(async () => {
    await createWidgets(api.client, WIDGETS);
    shards = new ShardProcesses(api.env.kubeconfigPath, NAMESPACE);
  });

  async function share(shard: string): Promise<number | undefined> {
    const url = shards.metricsUrl(shard);
    if (!url) return undefined;
    return shardObjects(await (await fetch(`${url}/metrics`)).text(), 'Widget');
  }

  /** The /metrics page of the shard that holds the leader lease, and so runs the sharder. */
  async function leaderMetrics(): Promise<string> {
    const url = shards.metricsUrl(
      (await leadingShard(api.client, NAMESPACE, 'widgets-sharder', 'widgets')) ?? '',
    );
    assert.ok(url, 'the leader is one of the shards');
    return (await fetch(`${url}/metrics`)).text();
  }

  function counts(assigned: Map<string, string | undefined>): Map<string, number> {
    const byShard = new Map<string, number>();
    for (const shard of assigned.values()) if (shard) byShard.set(shard, (byShard.get(shard) ?? 0) + 1);
    return byShard;
  }

  it('assigns every Widget to exactly one of 3 shards, each caching only its share, and reconciles each', async (t) => {
    for (const name of ['shard-a', 'shard-b', 'shard-c']) shards.start(name);
    const assigned = await convergedOn(
      api.client,
      NAMESPACE,
      shards,
      ['shard-a', 'shard-b', 'shard-c'],
      CONVERGE_MS,
    );
    const byShard = counts(assigned);
    t.diagnostic(`objects per shard: ${JSON.stringify([...byShard])}`);
    assert.equal(
      [...byShard.values()].reduce((a, b) => a + b, 0),
      WIDGETS,
    );
    for (const [shard, count] of byShard) {
      assert.ok(count > WIDGETS / 3 / 2, `${shard} holds ${count} of ${WIDGETS}: the ring spreads them`);
      await eventuallyTrue(
        async () => (await share(shard)) === count,
        `${shard}'s cache to hold its ${count} Widgets only`,
      );
    }
  });

  it('puts each owned ConfigMap on its Widget shard', async () => {
    await eventuallyTrue(
      async () => {
        const assigned = await assignments(api.client, NAMESPACE);
        const maps = await api.client
          .direct()
          .listAll(ConfigMapKind, { namespace: NAMESPACE, labelSelector: SHARD });
        const owned = maps.filter((m) => m.metadata?.name?.endsWith('-cm'));
        return (
          owned.length === WIDGETS / 10 &&
          owned.every(
            (m) => m.metadata?.labels?.[SHARD] === assigned.get(m.metadata?.name?.slice(0, -3) ?? ''),
          )
        );
      },
      'every tenth Widget to have its ConfigMap, on its shard',
      CONVERGE_MS,
    );
  });

  it('moves about a quarter of the Widgets to a fourth shard joining, and back when it leaves on SIGTERM', async (t) => {
    const before = await assignments(api.client, NAMESPACE);
    shards.start('shard-d');
    const joined = await convergedOn(
      api.client,
      NAMESPACE,
      shards,
      ['shard-a', 'shard-b', 'shard-c', 'shard-d'],
      CONVERGE_MS,
    );
    const moved = [...joined].filter(([name, shard]) => before.get(name) !== shard);
    t.diagnostic(`moved on join: ${moved.length} of ${WIDGETS}`);
    assert.ok(
      moved.every(([, shard]) => shard === 'shard-d'),
      'a Widget moves only to the shard that joined',
    );
    assert.ok(moved.length > WIDGETS / 4 / 2 && moved.length < (WIDGETS / 4) * 1.5, `${moved.length} moved`);
    const sharder = await leaderMetrics();
    assert.ok(
      counter(sharder, 'sharding_drains_total') >= moved.length,
      'the sharder counts a drain per move',
    );
    assert.ok(
      counter(sharder, 'sharding_handover_duration_seconds_count') >= moved.length,
      'and times each hand-over',
    );
    assert.equal(await shards.terminate('shard-d'), 0, shards.stderr('shard-d'));
    const left = await convergedOn(
      api.client,
      NAMESPACE,
      shards,
      ['shard-a', 'shard-b', 'shard-c'],
      CONVERGE_MS,
    );
    assert.deepEqual(left, before, 'with shard-d gone the ring is the 3-shard ring again');
  });

  it("picks a killed shard's Widgets up on the others", async (t) => {
    const leader = await leadingShard(api.client, NAMESPACE, 'widgets-sharder', 'widgets');
    const victim = ['shard-a', 'shard-b', 'shard-c'].find((s) => s !== leader) ?? 'shard-c';
    const killedAt = await shards.kill(victim);
    const rest = ['shard-a', 'shard-b', 'shard-c'].filter((s) => s !== victim);
    await convergedOn(api.client, NAMESPACE, shards, rest, CONVERGE_MS);
    t.diagnostic(
      `${victim} killed: its Widgets reconciled elsewhere after ${Math.round(sharedNow() - killedAt)} ms (lease 8 s, retry 1 s)`,
    );
  });

  it('never had one Widget reconciled by two shards at once', () => {
    assert.deepEqual(overlaps(shards.intervals).slice(0, 10), []);
  });
});

async function createWidgets(client: Client, count: number): Promise<void> {
  const names = Array.from({ length: count }, (_, i) => `widget-${i}`);
  const create = async (): Promise<void> => {
    for (let name = names.pop(); name; name = names.pop())
      await client.create({
        apiVersion: WidgetKind.apiVersion,
        kind: WidgetKind.kind,
        metadata: { name, namespace: NAMESPACE },
        spec: { size: 1 },
      });
  };
  await Promise.all(Array.from({ length: 16 }, create));
}

/** The sum of a counter's series on a /metrics page. */
function counter(metrics: string, name: string): number {
  return metrics
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}
