import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Manager } from '../../../src/runtime/manager/manager.ts';
import { MicroTimeDate } from '../../../src/runtime/api/micro-time-date.ts';
import { RING_LABEL } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { runInBackground, testManager, WidgetKind } from '../controller/support.ts';
import { ringEnvironment } from './ring-environment.ts';

const NAMESPACE = 'mixed';
const WIDGETS = 20;

describe('an unsharded controller of a sharded kind', () => {
  const api = ringEnvironment(NAMESPACE);

  /** A manager of shard "me" of the ring, leading with Lease `leaderElectionId`. */
  function shardManager(leaderElectionId: string): Promise<Manager> {
    return testManager(api.env, {
      namespace: NAMESPACE,
      leaderElection: true,
      leaderElectionId,
      leaderElectionNamespace: NAMESPACE,
      sharding: { ring: 'mixed', shardName: 'me' },
    });
  }

  it('is refused when the kind is cached as the shard share only, instead of seeing that share', async () => {
    const mgr = await shardManager('mixed-leader');
    mgr
      .controller()
      .for(WidgetKind)
      .sharded()
      .complete({ reconcile: async () => ({}) });
    assert.throws(
      () =>
        mgr
          .controller()
          .named('leader-only')
          .for(WidgetKind)
          .sharded(false)
          .complete({ reconcile: async () => ({}) }),
      /Widget is cached as this shard's share/,
    );
  });

  it('sees every Widget on the leader when only the unsharded controller watches them', async () => {
    // A second live shard, so that the ring splits the Widgets.
    const now = new MicroTimeDate(Date.now());
    await api.client.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'other', namespace: NAMESPACE, labels: { [RING_LABEL]: 'mixed' } },
      spec: { holderIdentity: 'other', leaseDurationSeconds: 600, acquireTime: now, renewTime: now },
    });
    for (let i = 0; i < WIDGETS; i++)
      await api.client.create({
        apiVersion: WidgetKind.apiVersion,
        kind: WidgetKind.kind,
        metadata: { name: `w-${i}`, namespace: NAMESPACE },
        spec: { size: 1 },
      });
    const mgr = await shardManager('mixed-leader-2');
    const seen = new Set<string>();
    mgr
      .controller()
      .named('leader-only')
      .for(WidgetKind)
      .complete({
        reconcile: async (req) => {
          seen.add(req.name);
          return {};
        },
      });
    const run = runInBackground(mgr);
    try {
      await eventuallyTrue(
        () => seen.size === WIDGETS,
        `the leader-only controller reconciling all ${WIDGETS}`,
      );
    } finally {
      await run.stop();
    }
  });
});
