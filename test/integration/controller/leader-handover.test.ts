import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { LeaderElectionLostError } from '../../../src/runtime/leader/leader-election-lost-error.ts';
import type { Manager } from '../../../src/runtime/manager/manager.ts';
import type { ManagerOptions } from '../../../src/runtime/manager/manager-options.ts';
import type { Request } from '../../../src/runtime/reconcile/request.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { createConfigMaps, pause, runInBackground, testManager, uniqueNamespace } from './support.ts';

/** Short enough for a test, in client-go's proportions (lease > renew deadline > 1.2 × retry). */
const LEASE = { leaseDuration: 3000, renewDeadline: 2000, retryPeriod: 250 };

/** One reconcile as a replica ran it: who, which object, and when it started and ended (wall ms). */
interface Interval {
  readonly who: string;
  readonly key: string;
  readonly start: number;
  end?: number;
  aborted?: boolean;
}

describe('leader hand-over', () => {
  let env: Environment;
  before(async () => {
    env = await startEnvironment();
  });
  after(async () => {
    // Ends the reconciles that ignored their signals, so that the test process can exit.
    testDone.abort();
    await env.stop();
  });

  /**
   * A replica whose reconciles of ConfigMaps in `namespace` are recorded in `intervals`. A reconcile
   * of an object named `slow-*` takes `slowMs`, and ignores its signal when `ignoreSignal`.
   */
  async function replica(
    who: string,
    lease: string,
    namespace: string,
    intervals: Interval[],
    options: ManagerOptions & { slowMs?: number; ignoreSignal?: boolean } = {},
  ): Promise<Manager> {
    const { slowMs = 0, ignoreSignal = false, ...managerOptions } = options;
    const mgr = await testManager(env, {
      leaderElection: true,
      leaderElectionId: lease,
      leaderElectionNamespace: 'default',
      ...LEASE,
      ...managerOptions,
    });
    mgr
      .controller(`cm-${who}`)
      .for(ConfigMapKind)
      .complete({
        reconcile: async (req: Request, signal: AbortSignal) => {
          if (req.namespace !== namespace) return {};
          const interval: Interval = { who, key: req.name, start: Date.now() };
          intervals.push(interval);
          if (req.name.startsWith('slow-')) await pause(slowMs, ignoreSignal ? testDone.signal : signal);
          interval.aborted = signal.aborted;
          interval.end = Date.now();
          return {};
        },
      });
    return mgr;
  }

  it('keeps the lease through a drain longer than the lease: the standby never overlaps the leader', async () => {
    const ns = uniqueNamespace('handover');
    const intervals: Interval[] = [];
    const slowMs = LEASE.leaseDuration * 2;
    const a = runInBackground(await replica('a', 'drain', ns, intervals, { slowMs }));
    await createConfigMaps(env, ns, ['first']);
    await eventuallyTrue(() => intervals.some((i) => i.who === 'a' && i.end), 'a to lead and reconcile');
    const b = runInBackground(await replica('b', 'drain', ns, intervals, { slowMs }));
    await createConfigMaps(env, ns, ['slow-1']);
    await eventuallyTrue(() => intervals.some((i) => i.key === 'slow-1'), 'a to start the slow reconcile');
    // SIGTERM to the leader, mid-reconcile: it drains for twice the lease duration.
    const stop = a.stop();
    // Objects changed during the drain must wait for the next leader.
    await createConfigMaps(env, ns, ['during-drain']);
    await stop;
    await eventuallyTrue(() => intervals.some((i) => i.who === 'b' && i.end), 'b to take over');
    await b.stop();

    const lastOfA = Math.max(...intervals.filter((i) => i.who === 'a').map((i) => i.end ?? Infinity));
    const firstOfB = Math.min(...intervals.filter((i) => i.who === 'b').map((i) => i.start));
    const slow = intervals.find((i) => i.key === 'slow-1');
    assert.equal(slow?.who, 'a');
    assert.equal(slow?.aborted, false, 'the drain let the slow reconcile finish');
    assert.ok(firstOfB >= lastOfA, `b started ${lastOfA - firstOfB} ms before a's last reconcile ended`);
    // Released after the drain: b takes over on its next retry, not after the lease expires.
    assert.ok(
      firstOfB - lastOfA < LEASE.leaseDuration,
      `b started ${firstOfB - lastOfA} ms after a's last reconcile ended: it waited for the lease to expire`,
    );
    assert.ok(
      intervals.some((i) => i.who === 'b' && i.key === 'during-drain'),
      'b reconciled what changed during the drain',
    );
  });

  it('aborts every reconcile at once and rejects promptly when the lease is lost', async () => {
    const ns = uniqueNamespace('lost');
    const intervals: Interval[] = [];
    // The reconcile ignores its signal: losing the lease must not wait for it.
    const mgr = await replica('c', 'lost', ns, intervals, { slowMs: 10 * 60_000, ignoreSignal: true });
    let signalOfSlow: AbortSignal | undefined;
    mgr
      .controller('watcher')
      .for(ConfigMapKind)
      .complete({
        reconcile: async (req: Request, signal: AbortSignal) => {
          if (req.namespace === ns && req.name === 'slow-1') {
            signalOfSlow = signal;
            await pause(10 * 60_000, signal);
          }
          return {};
        },
      });
    const run = runInBackground(mgr);
    await createConfigMaps(env, ns, ['slow-1']);
    await eventuallyTrue(
      () => signalOfSlow !== undefined && intervals.length > 0,
      'both reconciles to start',
    );
    await stealLease('lost');
    await assert.rejects(run.done, (err: unknown) => err instanceof LeaderElectionLostError);
    assert.equal(signalOfSlow?.aborted, true, 'the in-flight reconcile was aborted');
    assert.ok(signalOfSlow?.reason instanceof LeaderElectionLostError);
  });

  it('a lease lost while draining after SIGTERM aborts the reconciles in flight at once', async () => {
    const ns = uniqueNamespace('lost-draining');
    const intervals: Interval[] = [];
    let signalOfSlow: AbortSignal | undefined;
    const mgr = await replica('e', 'lost-draining', ns, intervals);
    mgr
      .controller('slow-watcher')
      .for(ConfigMapKind)
      .complete({
        reconcile: async (req: Request, signal: AbortSignal) => {
          if (req.namespace === ns && req.name === 'slow-1') {
            signalOfSlow = signal;
            await pause(10 * 60_000, signal);
          }
          return {};
        },
      });
    const run = runInBackground(mgr);
    await createConfigMaps(env, ns, ['slow-1']);
    await eventuallyTrue(() => signalOfSlow !== undefined, 'the slow reconcile to start');
    const stopped = run.stop();
    await stealLease('lost-draining');
    await assert.rejects(stopped, (err: unknown) => err instanceof LeaderElectionLostError);
    assert.ok(signalOfSlow?.reason instanceof LeaderElectionLostError, 'the draining reconcile was aborted');
  });

  it('a warm standby has its caches synced before it leads; a cold one lists only once it leads', async () => {
    const ns = uniqueNamespace('warmup');
    const intervals: Interval[] = [];
    const leader = runInBackground(await replica('leader', 'warmup', ns, intervals));
    await createConfigMaps(env, ns, ['first']);
    await eventuallyTrue(() => intervals.some((i) => i.who === 'leader'), 'the leader to reconcile');

    const warm = await replica('warm', 'warmup', ns, intervals, { warmup: true });
    const cold = await replica('cold', 'warmup', ns, intervals, { warmup: false });
    const warmRun = runInBackground(warm);
    const coldRun = runInBackground(cold);
    try {
      await eventuallyTrue(async () => (await readyz(warm)) === 200, 'the warm standby to be ready');
      await eventuallyTrue(async () => (await readyz(cold)) === 200, 'the cold standby to be ready');
      // The warm standby's cache is synced; the cold one has listed nothing, yet serves a read.
      assert.deepEqual(warm.cache.unsynced(), []);
      assert.deepEqual(
        cold.cache.unsynced().map((u) => u.kind),
        ['v1/ConfigMap'],
      );
      assert.ok((await cold.cache.list(ConfigMapKind, { namespace: ns })).items.length >= 1);
      assert.ok(!intervals.some((i) => i.who !== 'leader'), 'a standby reconciled while the leader led');
      await leader.stop();
      await eventuallyTrue(() => intervals.some((i) => i.who !== 'leader'), 'a standby to take over');
    } finally {
      await warmRun.stop();
      await coldRun.stop();
    }
  });

  async function stealLease(name: string): Promise<void> {
    const leases = env.kubeConfig.makeApiClient(CoordinationV1Api);
    const lease = await leases.readNamespacedLease({ namespace: 'default', name });
    await leases.replaceNamespacedLease({
      namespace: 'default',
      name,
      body: { ...lease, spec: { ...lease.spec, holderIdentity: 'usurper', leaseDurationSeconds: 60 } },
    });
  }
});

async function readyz(mgr: Manager): Promise<number> {
  const url = mgr.healthProbeUrl;
  if (!url) return 0;
  return (await fetch(`${url}/readyz`)).status;
}

/** Aborted when the file's tests are over. */
const testDone = new AbortController();
