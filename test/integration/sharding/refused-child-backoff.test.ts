import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { HashRing } from '../../../src/runtime/sharding/hash-ring.ts';
import { ringKeyOf } from '../../../src/runtime/sharding/ring-key.ts';
import { shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { apiServerLists } from './api-server-lists.ts';
import { freezeLockedLabels, LOCKED } from './frozen-labels-policy.ts';
import { processRing } from './process-ring.ts';

const NAMESPACE = 'refused-child-backoff';
const WIDGETS = 300;
const WINDOW_MS = 30_000;
const SHARD = shardLabel('widgets');

describe('one child whose shard label an admission policy refuses to change', () => {
  const ring = processRing(NAMESPACE, WIDGETS);
  before(async () => {
    await freezeLockedLabels(ring.client);
  });

  /** apiserver_request_total of LISTs of the ring's kinds, summed. */
  function lists(): Promise<Record<string, number>> {
    return apiServerLists(ring.env, ['widgets', 'configmaps', 'secrets']);
  }

  async function cpuSeconds(url: string): Promise<number> {
    const text = await (await fetch(`${url}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith('process_cpu_seconds_total '));
    return Number(line?.split(' ')[1]);
  }

  async function measure(
    what: string,
  ): Promise<{ what: string; lists: Record<string, number>; leaderCpuS: number; errors: number }> {
    const { shards } = ring;
    const url = shards.metricsUrl('shard-a');
    assert.ok(url);
    const errorsBefore = shards.errorLogs().filter((l) => l.startsWith('shard-a')).length;
    const [l0, c0] = [await lists(), await cpuSeconds(url)];
    await new Promise((r) => setTimeout(r, WINDOW_MS));
    const [l1, c1] = [await lists(), await cpuSeconds(url)];
    const delta = Object.fromEntries(
      Object.entries(l1).map(([k, v]) => [k, Number((v - (l0[k] ?? 0)).toFixed(2))]),
    );
    const errors = shards.errorLogs().filter((l) => l.startsWith('shard-a')).length - errorsBefore;
    return { what, lists: delta, leaderCpuS: Number((c1 - c0).toFixed(2)), errors };
  }

  it('backs off listing the ring while a child is refused, instead of listing it every second', async () => {
    const { client, shards } = ring;
    shards.start('shard-a', { script: 'owner-shard.ts' });
    await eventuallyTrue(
      async () => {
        const cms = await client.direct().listAll(ConfigMapKind, { namespace: NAMESPACE });
        return cms.filter((c) => c.metadata?.labels?.[SHARD] === 'shard-a').length === WIDGETS;
      },
      'every ConfigMap on shard-a',
      120_000,
    );
    // One ConfigMap of a Widget that moves to shard-b is locked.
    const hashRing = new HashRing(['shard-a', 'shard-b']);
    const widgets = await client.direct().listAll(WidgetKind, { namespace: NAMESPACE });
    const moving = widgets.find((w) => hashRing.shardFor(ringKeyOf(WidgetKind, w)) === 'shard-b');
    assert.ok(moving);
    const name = moving.metadata?.name ?? '';
    const cm = await client.direct().get(ConfigMapKind, { namespace: NAMESPACE, name });
    assert.ok(cm);
    await client.patch(cm, mergePatch({ metadata: { annotations: { [LOCKED]: 'true' } } }));
    shards.start('shard-b', { script: 'owner-shard.ts' });
    await eventuallyTrue(
      async () => {
        const all = await client.direct().listAll(WidgetKind, { namespace: NAMESPACE });
        return all.every((w) => w.metadata?.labels?.[SHARD] === hashRing.shardFor(ringKeyOf(WidgetKind, w)));
      },
      'every Widget on its shard of a and b',
      120_000,
    );
    // Settled, bar the one child.
    await new Promise((r) => setTimeout(r, 5000));
    const refused = await measure('one child refused');
    // Unlocked, the stray moves, and the ring is settled.
    const locked = await client.direct().get(ConfigMapKind, { namespace: NAMESPACE, name });
    assert.ok(locked);
    await client.patch(locked, mergePatch({ metadata: { annotations: { [LOCKED]: null } } }));
    await eventuallyTrue(
      async () =>
        (await client.direct().get(ConfigMapKind, { namespace: NAMESPACE, name }))?.metadata?.labels?.[
          SHARD
        ] === 'shard-b',
      'the unlocked ConfigMap to move',
    );
    await new Promise((r) => setTimeout(r, 5000));
    const settled = await measure('settled');
    // Backing off from 1 s to 60 s, a window of 30 s some 20 s into the refusal sees a few lists
    // at most; a resync every second saw 25-28.
    assert.ok(refused.errors >= 1, 'the refusal is logged');
    assert.ok(
      (refused.lists['widgets'] ?? 0) <= (settled.lists['widgets'] ?? 0) + 4,
      `the leader listed every Widget ${refused.lists['widgets']} times in ${WINDOW_MS / 1000} s for one refused child (settled: ${settled.lists['widgets']})`,
    );
  });
});
