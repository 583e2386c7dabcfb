import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Environment } from '../../../src/envtest/index.ts';
import type { Client } from '../../../src/runtime/client/client.ts';
import { ConfigMapKind, SecretKind } from '../../../src/runtime/client/kinds.ts';
import { defineKind } from '../../../src/runtime/client/kind.ts';
import { HashRing } from '../../../src/runtime/sharding/hash-ring.ts';
import { ringKeyOf } from '../../../src/runtime/sharding/ring-key.ts';
import { drainLabel, shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { createWidgets } from './in-process-ring.ts';
import { startRingEnvironment } from './ring-environment.ts';
import { overlaps, ShardProcesses } from './shards.ts';

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
  let env: Environment;
  let client: Client;
  let shards: ShardProcesses;

  before(async () => {
    ({ env, client } = await startRingEnvironment(NAMESPACE));
    await createWidgets(client, NAMESPACE, 'widget', WIDGETS);
    shards = new ShardProcesses(env.kubeconfigPath, NAMESPACE);
  });
  after(async () => {
    await shards.stopAll();
    await env.stop();
  });

  /**
   * Every Widget on its shard of the ring of `live`, reconciled there, and its ConfigMap and Secret
   * made and labelled with the same shard.
   */
  async function convergedOn(live: readonly string[]): Promise<void> {
    const ring = new HashRing(live);
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
          const home = ring.shardFor(ringKeyOf(WidgetKind, w));
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

  it('hands each moving Widget over with its children: no reconcile fails, no ReconcileFailed event', async () => {
    shards.start('shard-a', { script: SCRIPT });
    shards.start('shard-b', { script: SCRIPT });
    await convergedOn(['shard-a', 'shard-b']);
    assert.deepEqual(shards.failures, [], 'no reconcile failed before the join');

    shards.start('shard-c', { script: SCRIPT });
    await convergedOn(['shard-a', 'shard-b', 'shard-c']);
    // Late events of a failure would still be on their way: give them a moment.
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
    assert.deepEqual(overlaps(shards.intervals), [], 'no Widget reconciled by two shards at once');
  });
});
