import assert from 'node:assert/strict';
import type { V1ConfigMap, V1Namespace } from '@kubernetes/client-node';
import { describe, it } from 'node:test';
import { ConfigMapKind, NamespaceKind, SecretKind } from '../../../src/runtime/client/kinds.ts';
import type { Manager } from '../../../src/runtime/manager/manager.ts';
import { shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { runInBackground, testManager, WidgetKind, type Widget } from '../controller/support.ts';
import { ringEnvironment } from './ring-environment.ts';

const NAMESPACE = 'stamped';
const SHARD = shardLabel('stamped');

describe('the shard label on objects a shard writes', () => {
  const api = ringEnvironment(NAMESPACE);

  function widget(name: string, labels: Record<string, string> = {}): Promise<Widget> {
    return api.client.create({
      apiVersion: WidgetKind.apiVersion,
      kind: WidgetKind.kind,
      metadata: { name, namespace: NAMESPACE, labels },
      spec: { size: 1 },
    });
  }

  /** A ConfigMap `name` controlled by `owner`, written through `mgr`'s client. */
  function controlledBy(mgr: Manager, owner: Widget, name: string): Promise<V1ConfigMap> {
    const ref = {
      apiVersion: WidgetKind.apiVersion,
      kind: WidgetKind.kind,
      name: owner.metadata?.name ?? '',
      uid: owner.metadata?.uid ?? '',
      controller: true,
    };
    return mgr.client.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: NAMESPACE, ownerReferences: [ref] },
    });
  }

  it('goes only on what a sharded reconcile creates for the object it reconciles', async () => {
    // No sharder: nothing but the writes below labels the ConfigMaps.
    const mine = await widget('mine', { [SHARD]: 'me' });
    const other = await widget('other');
    await api.client.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'trigger', namespace: NAMESPACE },
    });
    const mgr = await testManager(api.env, {
      namespace: NAMESPACE,
      leaderElection: true,
      leaderElectionId: 'stamped-leader',
      leaderElectionNamespace: NAMESPACE,
      sharding: { ring: 'stamped', shardName: 'me', sharder: false },
    });
    const written = new Map<string, V1ConfigMap>();
    const write = async (name: string, owner: Widget): Promise<void> => {
      written.set(name, await controlledBy(mgr, owner, name));
    };
    mgr
      .controller()
      .for(WidgetKind)
      .owns(ConfigMapKind)
      .sharded()
      .complete({
        reconcile: async (req) => {
          if (req.name !== 'mine' || written.has('own')) return {};
          await write('own', mine);
          await write('for-another-owner', other);
          return {};
        },
      });
    mgr
      .controller()
      .named('leader-only')
      .for(SecretKind)
      .complete({
        reconcile: async (req) => {
          if (req.name === 'trigger' && !written.has('by-the-leader')) await write('by-the-leader', mine);
          return {};
        },
      });
    const run = runInBackground(mgr);
    try {
      await eventuallyTrue(() => written.size === 3, 'the three ConfigMaps written');
    } finally {
      await run.stop();
    }
    const stamped = async (name: string): Promise<string | undefined> =>
      (await api.client.direct().get(ConfigMapKind, { namespace: NAMESPACE, name }))?.metadata?.labels?.[
        SHARD
      ];
    assert.equal(await stamped('own'), 'me', 'lands in the shard cache its owner is reconciled from');
    assert.equal(
      await stamped('for-another-owner'),
      undefined,
      "another owner's shard is the sharder's call",
    );
    assert.equal(await stamped('by-the-leader'), undefined, 'a leader-only controller shards nothing');
  });

  it('goes on the namespaced objects a sharded reconcile of a cluster-scoped object creates', async () => {
    const owner = await api.client.create<V1Namespace>({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'stamped-owner', labels: { [SHARD]: 'me' } },
    });
    const mgr = await testManager(api.env, {
      leaderElection: true,
      leaderElectionId: 'stamped-cluster-leader',
      leaderElectionNamespace: NAMESPACE,
      sharding: { ring: 'stamped', shardName: 'me', sharder: false },
    });
    let written = false;
    mgr
      .controller()
      .for(NamespaceKind)
      .owns(ConfigMapKind)
      .sharded()
      .complete({
        reconcile: async (req) => {
          if (req.name !== 'stamped-owner' || written) return {};
          await mgr.client.create({
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: {
              name: 'of-a-namespace',
              namespace: NAMESPACE,
              ownerReferences: [
                {
                  apiVersion: 'v1',
                  kind: 'Namespace',
                  name: 'stamped-owner',
                  uid: owner.metadata?.uid ?? '',
                  controller: true,
                },
              ],
            },
          });
          written = true;
          return {};
        },
      });
    const run = runInBackground(mgr);
    try {
      await eventuallyTrue(() => written, 'the ConfigMap written');
    } finally {
      await run.stop();
    }
    const cm = await api.client.direct().get(ConfigMapKind, { namespace: NAMESPACE, name: 'of-a-namespace' });
    assert.equal(
      cm?.metadata?.labels?.[SHARD],
      'me',
      'lands in the shard cache its owner is reconciled from',
    );
  });

  it('is refused to a second sharded controller of the same kind, whose workqueue the drain would not wait for', async () => {
    const mgr = await testManager(api.env, {
      leaderElection: true,
      leaderElectionId: 'stamped-twin-leader',
      leaderElectionNamespace: NAMESPACE,
      sharding: { ring: 'stamped', shardName: 'me', sharder: false },
    });
    mgr
      .controller()
      .for(WidgetKind)
      .sharded()
      .complete({ reconcile: async () => ({}) });
    assert.throws(
      () =>
        mgr
          .controller()
          .named('twin')
          .for(WidgetKind)
          .sharded()
          .complete({ reconcile: async () => ({}) }),
      /controller twin shards Widget, which another sharded controller already does/,
    );
  });
});
