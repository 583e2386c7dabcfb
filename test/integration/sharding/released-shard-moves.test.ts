import assert from 'node:assert/strict';
import type { V1Lease } from '@kubernetes/client-node';
import type { Json } from '../../../src/runtime/api/json.ts';
import { after, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { MicroTimeDate } from '../../../src/runtime/api/micro-time-date.ts';
import { newCache } from '../../../src/runtime/cache/cache.ts';
import { LeaseKind } from '../../../src/runtime/client/kinds.ts';
import { systemClock } from '../../../src/runtime/clock/clock.ts';
import { LeaderElector } from '../../../src/runtime/leader/leader-elector.ts';
import { leaseLock } from '../../../src/runtime/leader/lease-lock.ts';
import { silentLogger } from '../../../src/runtime/log/logger.ts';
import { RingMembership } from '../../../src/runtime/sharding/ring-membership.ts';
import { RING_LABEL, SHARDER_IDENTITY, shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { shardingMetrics } from '../../../src/runtime/sharding/sharding-metrics.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { runInBackground, testManager, WidgetKind } from '../controller/support.ts';
import { ringEnvironment } from './ring-environment.ts';

const NAMESPACE = 'released';
const RING = 'released';
const SHARD = shardLabel(RING);
const LEASE = { leaseDuration: 4000, renewDeadline: 2500, retryPeriod: 500 };
const WIDGETS = 5;

describe("moving a shard's objects away without a drain", () => {
  const testDone = new AbortController();
  after(() => testDone.abort());
  const api = ringEnvironment(NAMESPACE);

  function lease(): Promise<Json<V1Lease> | undefined> {
    return api.client.direct().get(LeaseKind, { namespace: NAMESPACE, name: 'gone' });
  }

  /** Shard "gone" coming back under its old name, as a restarted pod of a StatefulSet would. */
  function comeBack(): { acquiredAt: Promise<number>; stop: () => void } {
    const stop = new AbortController();
    const elector = new LeaderElector({
      lock: leaseLock(api.client, NAMESPACE, 'gone', { labels: { [RING_LABEL]: RING } }),
      identity: 'gone',
      ...LEASE,
      retryPeriod: 200,
      callbacks: {
        onStartedLeading: (signal) =>
          new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
      },
    });
    let acquired!: (at: number) => void;
    const acquiredAt = new Promise<number>((resolve) => (acquired = resolve));
    const poll = setInterval(() => {
      if (elector.isLeader()) acquired(Date.now());
    }, 20);
    void elector.run(AbortSignal.any([stop.signal, testDone.signal])).finally(() => clearInterval(poll));
    return { acquiredAt, stop: () => stop.abort() };
  }

  it('holds a released Lease first, so that its shard cannot come back while the objects move', async () => {
    const now = new MicroTimeDate(Date.now());
    await api.client.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'gone', namespace: NAMESPACE, labels: { [RING_LABEL]: RING } },
      // As a shard stopping releases it: no holder, 1 s.
      spec: { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now },
    });
    for (let i = 0; i < WIDGETS; i++)
      await api.client.create({
        apiVersion: WidgetKind.apiVersion,
        kind: WidgetKind.kind,
        metadata: { name: `w-${i}`, namespace: NAMESPACE, labels: { [SHARD]: 'gone' } },
        spec: { size: 1 },
      });
    const mgr = await testManager(api.env, {
      namespace: NAMESPACE,
      leaderElection: true,
      leaderElectionId: 'released-leader',
      leaderElectionNamespace: NAMESPACE,
      ...LEASE,
      sharding: { ring: RING, shardName: 'me' },
    });
    mgr
      .controller()
      .for(WidgetKind)
      .sharded()
      .complete({ reconcile: async () => ({}) });
    const run = runInBackground(mgr);
    try {
      const moved = async (): Promise<number> =>
        (await api.client.direct().listAll(WidgetKind, { namespace: NAMESPACE })).filter(
          (w) => w.metadata?.labels?.[SHARD] === 'me',
        ).length;
      await eventuallyTrue(async () => (await moved()) > 0, 'a Widget moved to shard me');
      const held = await lease();
      assert.equal(
        held?.spec?.holderIdentity,
        SHARDER_IDENTITY,
        'the Lease is the sharder’s before anything moves',
      );
      assert.ok((held?.spec?.leaseDurationSeconds ?? 0) >= 4, 'for a lease duration, not the released 1 s');
      await eventuallyTrue(async () => (await moved()) === WIDGETS, 'every Widget moved to shard me');

      const heldAt = new Date(String((await lease())?.spec?.renewTime)).getTime();
      const back = comeBack();
      try {
        const acquiredAt = await back.acquiredAt;
        assert.ok(
          acquiredAt >= heldAt + LEASE.leaseDuration,
          `shard gone came back ${acquiredAt - heldAt} ms after the sharder held its Lease, within its hold`,
        );
      } finally {
        back.stop();
      }
    } finally {
      await run.stop();
    }
  });

  it('drains instead, at write time, when the shard holds its Lease again', async () => {
    const back = comeBack();
    const caches = new AbortController();
    try {
      await back.acquiredAt;
      const cache = newCache({
        kubeConfig: api.env.kubeConfig,
        byKind: [{ kind: LeaseKind, namespaces: [NAMESPACE], labelSelector: `${RING_LABEL}=${RING}` }],
      });
      const leases = cache.informerFor<V1Lease>(LeaseKind);
      cache.start(caches.signal);
      assert.ok(await cache.waitForCacheSync(caches.signal));
      const membership = new RingMembership({
        ring: RING,
        leases,
        leaseNamespace: NAMESPACE,
        holdDuration: LEASE.leaseDuration,
        retryPeriod: LEASE.retryPeriod,
        client: api.client,
        clock: systemClock,
        logger: silentLogger,
        metrics: shardingMetrics(new Registry()),
      });
      await eventuallyTrue(
        () => leases.store.get(`${NAMESPACE}/gone`)?.spec?.holderIdentity === 'gone',
        'the sharder to see shard gone back',
      );
      assert.deepEqual(await membership.moveAway('gone'), { action: 'drain' });
      assert.equal((await lease())?.spec?.holderIdentity, 'gone', 'the live shard keeps its Lease');
    } finally {
      caches.abort();
      back.stop();
    }
  });
});
