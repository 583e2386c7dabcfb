import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { LeaseKind } from '../../../src/runtime/client/kinds.ts';
import { GracefulShutdownTimeoutError } from '../../../src/runtime/manager/controller-group.ts';
import type { Manager } from '../../../src/runtime/manager/manager.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { pause, runInBackground, testManager, WidgetKind } from '../controller/support.ts';
import { ringEnvironment } from './ring-environment.ts';

const NAMESPACE = 'undrained';

describe('a shard stopping while a reconcile ignores its signal', () => {
  const testDone = new AbortController();
  after(() => testDone.abort());
  const api = ringEnvironment(NAMESPACE);

  /** Shard `shard`, alone in its ring, whose reconcile of its Widget lasts `reconcileMs`. */
  async function shard(shard: string, reconcileMs: number, started: () => void): Promise<Manager> {
    const mgr = await testManager(api.env, {
      namespace: NAMESPACE,
      leaderElection: true,
      leaderElectionId: `${shard}-leader`,
      leaderElectionNamespace: NAMESPACE,
      leaseDuration: 4000,
      renewDeadline: 2500,
      retryPeriod: 500,
      gracefulShutdownTimeout: 300,
      sharding: { ring: shard, shardName: shard },
    });
    mgr
      .controller()
      .for(WidgetKind)
      .sharded()
      .complete({
        reconcile: async (req) => {
          if (req.name !== shard) return {};
          started();
          await pause(reconcileMs, testDone.signal);
          return {};
        },
      });
    await api.client.create({
      apiVersion: WidgetKind.apiVersion,
      kind: WidgetKind.kind,
      metadata: { name: shard, namespace: NAMESPACE },
      spec: { size: 1 },
    });
    return mgr;
  }

  async function holder(shard: string): Promise<{ holder: string; renewed: string }> {
    const lease = await api.client.direct().get(LeaseKind, { namespace: NAMESPACE, name: shard });
    return { holder: lease?.spec?.holderIdentity ?? '', renewed: String(lease?.spec?.renewTime ?? '') };
  }

  it('keeps its Lease, to expire, when the drain outlives the graceful-shutdown timeout', async () => {
    let reconciling = false;
    const run = runInBackground(await shard('stuck', 10 * 60_000, () => (reconciling = true)));
    await eventuallyTrue(() => reconciling, 'the reconcile to start');
    await assert.rejects(run.stop(), GracefulShutdownTimeoutError);
    const kept = await holder('stuck');
    assert.equal(
      kept.holder,
      'stuck',
      'released, another shard could take the Widget while it is reconciled',
    );
    // Left to expire: no renewal after the manager stopped.
    await pause(1500, testDone.signal);
    assert.deepEqual(await holder('stuck'), kept);
  });

  it('releases its Lease when the drain finishes in time', async () => {
    let reconciling = false;
    const run = runInBackground(await shard('quick', 100, () => (reconciling = true)));
    await eventuallyTrue(() => reconciling, 'the reconcile to start');
    await run.stop();
    assert.equal((await holder('quick')).holder, '');
  });
});
