import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { MicroTimeDate } from '../../../src/runtime/api/micro-time-date.ts';
import { newClient } from '../../../src/runtime/client/client.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { silentLogger } from '../../../src/runtime/log/logger.ts';
import {
  HOLDER_PROCESS_ANNOTATION,
  HOLDER_RENEW_TIME_ANNOTATION,
  RING_LABEL,
  shardLabel,
} from '../../../src/runtime/sharding/shard-labels.ts';
import { Sharder } from '../../../src/runtime/sharding/sharder.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { ringEnvironment } from './ring-environment.ts';

const NAMESPACE = 'expired-leader';
const LEASE_DURATION = 15_000;
const RETRY_PERIOD = 2000;

describe("a new leader's sharder", () => {
  const api = ringEnvironment(NAMESPACE);

  /**
   * Shard `name`'s Lease of `ring`, marked by process `process` and renewed at `renewTime` for a
   * lease duration: by that process, or by another writer that kept its mark and the renew time
   * the process wrote last (`processRenewTime`).
   */
  async function shardLease(
    ring: string,
    name: string,
    process: string,
    renewTime: number,
    duration = LEASE_DURATION,
    processRenewTime = renewTime,
  ): Promise<void> {
    const now = new MicroTimeDate(renewTime);
    await api.client.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name,
        namespace: NAMESPACE,
        labels: { [RING_LABEL]: ring },
        annotations: {
          [HOLDER_PROCESS_ANNOTATION]: process,
          [HOLDER_RENEW_TIME_ANNOTATION]: new MicroTimeDate(processRenewTime).toISOString(),
        },
      },
      spec: {
        holderIdentity: name,
        leaseDurationSeconds: duration / 1000,
        acquireTime: now,
        renewTime: now,
      },
    });
  }

  async function shardOf(ring: string, name: string): Promise<string | undefined> {
    const widget = await api.client.direct().get(WidgetKind, { namespace: NAMESPACE, name });
    return widget?.metadata?.labels?.[shardLabel(ring)];
  }

  async function widgetOn(ring: string, name: string, shard: string): Promise<void> {
    await api.client.create({
      apiVersion: WidgetKind.apiVersion,
      kind: WidgetKind.kind,
      metadata: { name, namespace: NAMESPACE, labels: { [shardLabel(ring)]: shard } },
      spec: { size: 1 },
    });
  }

  /** Runs `work` while `sharder` runs, and stops it after. */
  async function whileRunning(sharder: Sharder, work: () => Promise<void>): Promise<void> {
    const stop = new AbortController();
    const running = sharder.run(stop.signal);
    try {
      await work();
    } finally {
      stop.abort();
      await running;
    }
  }

  /** The sharder of `ring` on `clock`, its process having taken the leader Lease from `expired`. */
  function sharderOf(
    ring: string,
    clock: FakeClock,
    expired: { identity: string; renewTime: number },
  ): Sharder {
    const transport = transportFor(api.env.kubeConfig);
    return new Sharder({
      ring,
      kinds: [{ kind: WidgetKind, controlled: [] }],
      leaseNamespace: NAMESPACE,
      namespace: NAMESPACE,
      client: newClient({ transport }),
      transport,
      retryPeriod: RETRY_PERIOD,
      leaseDuration: LEASE_DURATION,
      resyncPeriod: 600_000,
      concurrentMoves: 1,
      clock,
      logger: silentLogger,
      registry: new Registry(),
      expiredProcess: expired,
    });
  }

  it("moves the objects of the previous leader's shard at once, and no other shard's", async () => {
    const ring = 'leader';
    // The clock stands still: a shard whose Lease must be watched for a lease duration stays.
    const clock = new FakeClock(Date.now());
    await shardLease(ring, 'old-leader', 'host_process-1', clock.now());
    await shardLease(ring, 'quiet', 'host_process-2', clock.now());
    await shardLease(ring, 'live', 'host_process-3', clock.now());
    await widgetOn(ring, 'from-leader', 'old-leader');
    await widgetOn(ring, 'from-quiet', 'quiet');
    // This process took the leader Lease from process-1 once it expired on this clock; process-1
    // renewed it last as it renewed its shard's Lease.
    const sharder = sharderOf(ring, clock, { identity: 'host_process-1', renewTime: clock.now() });
    await whileRunning(sharder, async () => {
      await eventuallyTrue(
        async () => (await shardOf(ring, 'from-leader')) !== 'old-leader',
        "the previous leader's Widget moved, the clock standing still",
        20_000,
      );
      assert.notEqual(await shardOf(ring, 'from-leader'), undefined);
      assert.equal(
        await shardOf(ring, 'from-quiet'),
        'quiet',
        'a shard not seen expire here keeps its Widget',
      );
    });
  });

  it("moves the previous leader's shard at once when its last shard renewal came a timer's phase after its last leader renewal", async () => {
    const ring = 'phase';
    const clock = new FakeClock(Date.now());
    // The two renewals run on their own timers, a retry period each: the shard's last one may come
    // up to a retry period (and a little) after the leader's last one.
    const leaderRenewed = clock.now() - 1.5 * RETRY_PERIOD;
    await shardLease(ring, 'phased-leader', 'host_process-1', clock.now());
    await shardLease(ring, 'phase-stays', 'host_process-2', clock.now(), 100 * LEASE_DURATION);
    await widgetOn(ring, 'from-phased-leader', 'phased-leader');
    const sharder = sharderOf(ring, clock, { identity: 'host_process-1', renewTime: leaderRenewed });
    await whileRunning(sharder, async () => {
      await eventuallyTrue(
        async () => (await shardOf(ring, 'from-phased-leader')) === 'phase-stays',
        "the previous leader's Widget moved, the clock standing still",
        20_000,
      );
    });
  });

  it("watches the previous leader's shard for a lease duration when its Lease was renewed after its leader Lease", async () => {
    const ring = 'renewed-after';
    const clock = new FakeClock(Date.now());
    // Renewed three retry periods after process-1's last leader renewal: by a writer that kept its
    // mark, or by process-1 itself, still draining its shard after it stopped leading.
    const leaderRenewed = clock.now() - 3 * RETRY_PERIOD;
    await shardLease(ring, 'drained-later', 'host_process-1', clock.now());
    // A shard to move to, live for as long as the test runs.
    await shardLease(ring, 'stays', 'host_process-2', clock.now(), 100 * LEASE_DURATION);
    await widgetOn(ring, 'from-drained-later', 'drained-later');
    const sharder = sharderOf(ring, clock, { identity: 'host_process-1', renewTime: leaderRenewed });
    await whileRunning(sharder, async () => {
      // Checks of the standing clock, a retry period apart, find the shard live every time.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      assert.equal(
        await shardOf(ring, 'from-drained-later'),
        'drained-later',
        'moved while its Lease was new',
      );
      // Unrenewed for a lease duration on the sharder's clock: dead, and its Widget moves.
      clock.advance(LEASE_DURATION);
      await eventuallyTrue(
        async () => (await shardOf(ring, 'from-drained-later')) !== 'drained-later',
        'the Widget moved once the Lease went unrenewed for a lease duration',
        20_000,
      );
    });
  });

  it("watches the previous leader's shard for a lease duration when another writer that kept its mark renewed it, whatever that writer's clock", async () => {
    const ring = 'skewed-writer';
    const clock = new FakeClock(Date.now());
    // Process-1 renewed its leader and shard Leases last at the same moment, then died; a writer
    // that kept its mark (an older runtime, client-go's LeaseLock) renews the shard's Lease since,
    // on a clock 20 s behind: its renewTime reads older than process-1's last leader renewal.
    const leaderRenewed = clock.now();
    await shardLease(ring, 'skewed', 'host_process-1', clock.now() - 20_000, LEASE_DURATION, leaderRenewed);
    await shardLease(ring, 'skew-stays', 'host_process-2', clock.now(), 100 * LEASE_DURATION);
    await widgetOn(ring, 'from-skewed', 'skewed');
    const sharder = sharderOf(ring, clock, { identity: 'host_process-1', renewTime: leaderRenewed });
    await whileRunning(sharder, async () => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      assert.equal(
        await shardOf(ring, 'from-skewed'),
        'skewed',
        'moved on first sight while another renewed it',
      );
      clock.advance(LEASE_DURATION);
      await eventuallyTrue(
        async () => (await shardOf(ring, 'from-skewed')) === 'skew-stays',
        'the Widget moved once the Lease went unrenewed for a lease duration',
        20_000,
      );
    });
  });
});
