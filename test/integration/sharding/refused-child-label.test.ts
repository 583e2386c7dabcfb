import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { HashRing } from '../../../src/runtime/sharding/hash-ring.ts';
import { leadingShard } from '../../../src/runtime/sharding/leading-shard.ts';
import { ringKeyOf } from '../../../src/runtime/sharding/ring-key.ts';
import { shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { freezeLockedLabels, LOCKED } from './frozen-labels-policy.ts';
import { createWidgets } from './in-process-ring.ts';
import { ringEnvironment } from './ring-environment.ts';
import { ShardProcesses } from './shards.ts';

const WIDGETS = 30;
const SHARD = shardLabel('widgets');
const SCRIPT = 'owner-shard.ts';

/**
 * An owner's child whose shard label cannot be changed (an admission policy, as Kyverno or
 * Gatekeeper may enforce, refuses the write) must not keep the owner from its new shard: the owner
 * moves, the child is left behind and the leader says which one and why.
 */
describe('an owned object whose shard label an admission policy refuses to change', () => {
  const api = ringEnvironment('join-refused');
  before(async () => {
    await api.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'dead-refused' } });
    await freezeLockedLabels(api.client);
  });

  /** The shard of each Widget of `namespace`, by name ('' when it has none). */
  async function widgetShards(namespace: string): Promise<Map<string, string>> {
    const widgets = await api.client.direct().listAll(WidgetKind, { namespace });
    return new Map(widgets.map((w) => [w.metadata?.name ?? '', w.metadata?.labels?.[SHARD] ?? '']));
  }

  /** The Widgets of `namespace` that the ring of `live` puts on `shard`. */
  async function hashedTo(namespace: string, live: readonly string[], shard: string): Promise<string[]> {
    const ring = new HashRing(live);
    const widgets = await api.client.direct().listAll(WidgetKind, { namespace });
    return widgets
      .filter((w) => ring.shardFor(ringKeyOf(WidgetKind, w)) === shard)
      .map((w) => w.metadata?.name ?? '');
  }

  /** Waits until every Widget of `namespace` and its ConfigMap are on their shard of `live`. */
  async function converged(namespace: string, live: readonly string[]): Promise<void> {
    const ring = new HashRing(live);
    await eventuallyTrue(
      async () => {
        const configMaps = await api.client.direct().listAll(ConfigMapKind, { namespace });
        const widgets = await api.client.direct().listAll(WidgetKind, { namespace });
        const cmShards = new Map(
          configMaps.map((c) => [c.metadata?.name ?? '', c.metadata?.labels?.[SHARD]]),
        );
        return widgets.every((w) => {
          const home = ring.shardFor(ringKeyOf(WidgetKind, w));
          return w.metadata?.labels?.[SHARD] === home && cmShards.get(w.metadata?.name ?? '') === home;
        });
      },
      `every Widget of ${namespace} and its ConfigMap on its shard of ${live.join(', ')}`,
    );
  }

  /** Locks every ConfigMap of `namespace` a Widget owns, and waits for the policy to refuse a label change. */
  async function lockConfigMaps(namespace: string): Promise<void> {
    for (const cm of await api.client.direct().listAll(ConfigMapKind, { namespace })) {
      if (!cm.metadata?.ownerReferences) continue;
      await api.client.patch(cm, mergePatch({ metadata: { annotations: { [LOCKED]: 'true' } } }));
    }
    await eventuallyTrue(async () => {
      const cm = await api.client.direct().get(ConfigMapKind, { namespace, name: 'widget-0' });
      if (!cm) return false;
      try {
        await api.client.patch(cm, mergePatch({ metadata: { labels: { probe: 'x' } } }));
        await api.client.patch(cm, mergePatch({ metadata: { labels: { probe: null } } }));
        return false;
      } catch {
        return true;
      }
    }, 'the policy to refuse a label change');
  }

  it('assigns a drained owner to the shard that joins, leaving its child behind', async () => {
    const namespace = 'join-refused';
    await createWidgets(api.client, namespace, 'widget', WIDGETS);
    const shards = new ShardProcesses(api.env.kubeconfigPath, namespace);
    try {
      shards.start('shard-a', { script: SCRIPT });
      await converged(namespace, ['shard-a']);
      await lockConfigMaps(namespace);
      const toB = await hashedTo(namespace, ['shard-a', 'shard-b'], 'shard-b');
      assert.ok(toB.length > 0, 'some Widget moves to shard-b');

      shards.start('shard-b', { script: SCRIPT });
      // The join of 30 Widgets takes a few seconds; a Widget held back stays unassigned for ever.
      await eventuallyTrue(
        async () => {
          const on = await widgetShards(namespace);
          return toB.every((name) => on.get(name) === 'shard-b' && shards.reconciled('shard-b', name));
        },
        'every Widget hashing to shard-b assigned and reconciled there',
        30_000,
      );
      const on = await widgetShards(namespace);
      assert.deepEqual(
        [...on].filter(([, shard]) => shard === ''),
        [],
        'a Widget left with no shard',
      );
      // Their ConfigMaps stay behind, and the leader (shard-a, the first) says which and why.
      const leaderLog = shards.stderr('shard-a');
      assert.match(leaderLog, /cannot move a controlled object with its owner/);
      assert.ok(
        leaderLog.includes(`${namespace}/${toB[0]}`) && leaderLog.includes('frozen'),
        `the leader's log names the ConfigMap and the refusal:\n${leaderLog.slice(0, 2000)}`,
      );
    } finally {
      await shards.stopAll();
    }
  });

  it("moves a dead shard's owners, leaving their children behind", async () => {
    const namespace = 'dead-refused';
    await createWidgets(api.client, namespace, 'widget', WIDGETS);
    const shards = new ShardProcesses(api.env.kubeconfigPath, namespace);
    try {
      // shard-a leads (runs the sharder) and outlives shard-b.
      shards.start('shard-a', { script: SCRIPT });
      await eventuallyTrue(
        async () => (await leadingShard(api.client, namespace, 'widgets-sharder', 'widgets')) === 'shard-a',
        'shard-a to lead',
      );
      shards.start('shard-b', { script: SCRIPT });
      await converged(namespace, ['shard-a', 'shard-b']);
      await lockConfigMaps(namespace);
      const onB = await hashedTo(namespace, ['shard-a', 'shard-b'], 'shard-b');
      assert.ok(onB.length > 0, 'some Widget is on shard-b');

      const since = shards.intervals.length;
      await shards.kill('shard-b');
      // Its Lease expires 8 s after the kill; the moves take a second or two after that.
      await eventuallyTrue(
        async () => {
          const on = await widgetShards(namespace);
          const reconciled = new Set(
            shards.intervals.slice(since).flatMap((i) => (i.shard === 'shard-a' && i.end ? [i.name] : [])),
          );
          return onB.every((name) => on.get(name) === 'shard-a' && reconciled.has(name));
        },
        'every Widget of the killed shard-b moved to shard-a and reconciled there',
        40_000,
      );
      assert.match(shards.stderr('shard-a'), /cannot move a controlled object with its owner/);
    } finally {
      await shards.stopAll();
    }
  });
});
