import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SharedInformer } from '../../../src/runtime/cache/informer.ts';
import { ConfigMapKind, SecretKind } from '../../../src/runtime/client/kinds.ts';
import { defineKind } from '../../../src/runtime/client/kind.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { findStatusCondition } from '../../../src/runtime/conditions/conditions.ts';
import { silentLogger } from '../../../src/runtime/log/logger.ts';
import { HashRing } from '../../../src/runtime/sharding/hash-ring.ts';
import { ringKeyOf } from '../../../src/runtime/sharding/ring-key.ts';
import { drainLabel, shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind, type Widget } from '../controller/support.ts';
import { processRing } from './process-ring.ts';
import { overlaps } from './shards.ts';

const NAMESPACE = 'join-owned';
/** A third of them move to the shard that joins: enough hand-overs that a race shows. */
const WIDGETS = 240;
const SHARD = shardLabel('widgets');
const DRAIN = drainLabel('widgets');
const SCRIPT = 'owner-shard.ts';

const EventKind = defineKind<{ apiVersion?: string; kind?: string; reason?: string; note?: string }>({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  plural: 'events',
  namespaced: true,
});

describe('a shard joining a ring whose objects own others', () => {
  const ring = processRing(NAMESPACE, WIDGETS);

  /**
   * Every Widget on its shard of the ring of `live`, reconciled there, and its ConfigMap and Secret
   * made and labelled with the same shard.
   */
  async function convergedOn(live: readonly string[]): Promise<void> {
    const hashRing = new HashRing(live);
    const { client, shards } = ring;
    await eventuallyTrue(
      async () => {
        const widgets = await client.direct().listAll(WidgetKind, { namespace: NAMESPACE });
        const children = [
          ...(await client.direct().listAll(ConfigMapKind, { namespace: NAMESPACE })),
          ...(await client.direct().listAll(SecretKind, { namespace: NAMESPACE })),
        ];
        const childShards = new Map<string, string[]>();
        for (const child of children) {
          const owner = child.metadata?.ownerReferences?.[0]?.name;
          if (owner === undefined) continue;
          childShards.set(owner, [...(childShards.get(owner) ?? []), child.metadata?.labels?.[SHARD] ?? '']);
        }
        return widgets.every((w) => {
          const name = w.metadata?.name ?? '';
          const labels = w.metadata?.labels ?? {};
          const home = hashRing.shardFor(ringKeyOf(WidgetKind, w));
          const kids = childShards.get(name) ?? [];
          return (
            labels[DRAIN] === undefined &&
            labels[SHARD] === home &&
            home !== undefined &&
            shards.reconciled(home, name) &&
            kids.length === 2 &&
            kids.every((s) => s === home)
          );
        });
      },
      `every Widget, its ConfigMap and its Secret on its shard of ${live.join(', ')}`,
      180_000,
    );
  }

  it('hands each moving Widget over with its children: no failed reconcile, event, Degraded=True or ERROR log', async () => {
    const { client, env, shards } = ring;
    // Every state of every Widget, as a user watching them would see it.
    const degraded = new Set<string>();
    const watching = new AbortController();
    const widgets = new SharedInformer<Widget>({
      kind: WidgetKind,
      transport: transportFor(env.kubeConfig),
      namespaces: [NAMESPACE],
      logger: silentLogger,
    });
    const note = (w: Widget): void => {
      const condition = findStatusCondition(w.status?.conditions ?? [], 'Degraded');
      if (condition?.status === 'True') degraded.add(`${w.metadata?.name ?? ''}: ${condition.message ?? ''}`);
    };
    widgets.addEventHandler({ onAdd: note, onUpdate: (_old, w) => note(w) });
    widgets.start(watching.signal);
    try {
      await widgets.waitForSync(watching.signal);
      shards.start('shard-a', { script: SCRIPT });
      shards.start('shard-b', { script: SCRIPT });
      await convergedOn(['shard-a', 'shard-b']);
      assert.deepEqual(shards.failures, [], 'no reconcile failed before the join');

      shards.start('shard-c', { script: SCRIPT });
      await convergedOn(['shard-a', 'shard-b', 'shard-c']);
      // Late events and status writes of a failure would still be on their way: give them a moment.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const failed = (await client.direct().listAll(EventKind, { namespace: NAMESPACE })).filter(
        (e) => e.reason === 'ReconcileFailed',
      );
      assert.deepEqual(shards.failures, [], 'reconciles failed during the hand-over');
      assert.deepEqual(
        failed.map((e) => e.note),
        [],
        'ReconcileFailed events recorded during the hand-over',
      );
      assert.deepEqual([...degraded], [], 'Widgets seen Degraded=True during the hand-over');
      assert.deepEqual(shards.errorLogs(), [], 'ERROR logs of the shards during the hand-over');
      assert.deepEqual(overlaps(shards.intervals), [], 'no Widget reconciled by two shards at once');
    } finally {
      watching.abort();
    }
  });
});
