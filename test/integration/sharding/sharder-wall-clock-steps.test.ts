import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MicroTimeDate } from '../../../src/runtime/api/micro-time-date.ts';
import { LeaseKind } from '../../../src/runtime/client/kinds.ts';
import { systemClock, type Clock } from '../../../src/runtime/clock/clock.ts';
import { leadingShard } from '../../../src/runtime/sharding/leading-shard.ts';
import { RING_LABEL, SHARDER_IDENTITY } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { pause } from '../controller/support.ts';
import {
  assignments,
  convergedOn,
  createWidgets,
  InProcessRing,
  LEASE_DURATION,
  RING,
  type InProcessShard,
} from './in-process-ring.ts';
import { ringEnvironment } from './ring-environment.ts';
import { overlaps } from './shards.ts';

const NAMESPACE = 'wall-steps';
const WIDGETS = 30;

/** The system clock with a wall clock the test steps, as an NTP correction or a VM resume does. */
class SteppedClock implements Clock {
  #offset = 0;
  now(): number {
    return systemClock.now() + this.#offset;
  }
  monotonic(): number {
    return systemClock.monotonic();
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return systemClock.sleep(ms, signal);
  }
  step(ms: number): void {
    this.#offset += ms;
  }
}

describe("the wall clock of the sharder's process stepping", () => {
  let ring: InProcessRing;
  const shards: InProcessShard[] = [];
  const clock = new SteppedClock();
  const testDone = new AbortController();

  after(async () => {
    testDone.abort();
    await Promise.all(shards.map((s) => s.stop().catch(() => undefined)));
  });
  const api = ringEnvironment(NAMESPACE);
  before(async () => {
    await createWidgets(api.client, NAMESPACE, 'widget', WIDGETS);
    ring = new InProcessRing(api.env, NAMESPACE);
  });

  async function holder(name: string): Promise<string | undefined> {
    const lease = await api.client.direct().get(LeaseKind, { namespace: NAMESPACE, name });
    return lease?.spec?.holderIdentity ?? undefined;
  }

  /**
   * Over three lease durations, no shard Lease is taken over, no Widget moves or is unassigned,
   * and shard-a still leads (so the stepped clock is still the sharder's).
   */
  async function assertRingHolds(expected: Map<string, string | undefined>): Promise<void> {
    for (let i = 0; i < 6; i++) {
      await pause(LEASE_DURATION / 2, testDone.signal);
      assert.equal(await holder('shard-a'), 'shard-a');
      assert.equal(await holder('shard-b'), 'shard-b');
      assert.equal(await leadingShard(api.client, NAMESPACE, `${RING}-sharder`, RING), 'shard-a');
      assert.deepEqual(await assignments(api.client, NAMESPACE), expected);
    }
    assert.deepEqual(
      shards.filter((s) => s.stopped()).map((s) => s.name),
      [],
      'no shard stopped',
    );
  }

  it('declares no live shard dead when it steps forward or back by more than a lease duration', async () => {
    // shard-a leads, so its process runs the sharder on the stepped clock; shard-b's is the system's.
    shards.push(await ring.start('shard-a', { clock }));
    await eventuallyTrue(
      async () => (await leadingShard(api.client, NAMESPACE, `${RING}-sharder`, RING)) === 'shard-a',
      'shard-a to lead',
    );
    shards.push(await ring.start('shard-b'));
    const before = await convergedOn(api.client, NAMESPACE, ring, ['shard-a', 'shard-b']);
    clock.step(20 * LEASE_DURATION + 60_000);
    await assertRingHolds(before);
    clock.step(-2 * (20 * LEASE_DURATION + 60_000));
    await assertRingHolds(before);
  });

  it('still finds a shard dead that stopped renewing, its Lease renewed in the future of its wall clock', async () => {
    // A shard that held its Lease once and died: renewed now on the system clock, so ahead of the
    // sharder's wall clock by far more than its duration. Only the monotonic clock expires it.
    const now = new MicroTimeDate(systemClock.now());
    await api.client.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'shard-c', namespace: NAMESPACE, labels: { [RING_LABEL]: RING } },
      spec: {
        holderIdentity: 'shard-c',
        leaseDurationSeconds: LEASE_DURATION / 1000,
        acquireTime: now,
        renewTime: now,
      },
    });
    await eventuallyTrue(async () => (await holder('shard-c')) === SHARDER_IDENTITY, 'shard-c declared dead');
    await convergedOn(api.client, NAMESPACE, ring, ['shard-a', 'shard-b']);
    assert.equal(await holder('shard-a'), 'shard-a');
    assert.equal(await holder('shard-b'), 'shard-b');
  });

  it('never had one Widget reconciled by two shards at once', () => {
    assert.deepEqual(overlaps(ring.intervals).slice(0, 10), []);
  });
});
