import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { HashRing } from '../../../src/runtime/sharding/hash-ring.ts';
import { ringKeyOf } from '../../../src/runtime/sharding/ring-key.ts';
import { drainLabel, shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { runOnTickingClock, shardLease, ThrottledTransport, widgetSharder } from './fake-clock-sharder.ts';
import { createWidgets } from './in-process-ring.ts';
import { ringEnvironment } from './ring-environment.ts';

const NAMESPACE = 'join-resyncs';
const RING = 'burst';
const SHARD = shardLabel(RING);
const DRAIN = drainLabel(RING);
const WIDGETS = 24;
/** The sharder's retry period: long beside the burst of assignments (ms, on the test's clock). */
const RETRY = 20_000;
/** Between two drains acknowledged by the shard that lets them go (ms, on the test's clock). */
const ACK_EVERY = 400;

describe("the sharder's resyncs while a join's drained objects are assigned", () => {
  const api = ringEnvironment(NAMESPACE);

  it('list the whole ring shortly after the burst, and not once a second during it', async () => {
    const { env, client } = api;
    const clock = new FakeClock(Date.now());
    await client.create(shardLease(clock, NAMESPACE, RING, 'first', 'first', 3600));
    await createWidgets(client, NAMESPACE, 'w', WIDGETS);
    for (const widget of await client.direct().listAll(WidgetKind, { namespace: NAMESPACE }))
      await client.patch(widget, mergePatch({ metadata: { labels: { [SHARD]: 'first' } } }));
    const transport = new ThrottledTransport(transportFor(env.kubeConfig), clock);
    const running = runOnTickingClock(widgetSharder(NAMESPACE, RING, transport, clock, RETRY, RETRY), clock);
    try {
      await eventuallyTrue(() => transport.wholeLists > 0, 'the first resync');
      const ring = new HashRing(['first', 'second']);
      const moving = (await client.direct().listAll(WidgetKind, { namespace: NAMESPACE }))
        .filter((w) => ring.shardFor(ringKeyOf(WidgetKind, w)) === 'second')
        .map((w) => w.metadata?.name ?? '');
      assert.ok(moving.length > 2, `${moving.length} Widgets move to the shard joining`);
      const labels = async (): Promise<Map<string, Record<string, string>>> =>
        new Map(
          (await client.direct().listAll(WidgetKind, { namespace: NAMESPACE })).map((w) => [
            w.metadata?.name ?? '',
            w.metadata?.labels ?? {},
          ]),
        );
      await client.create(shardLease(clock, NAMESPACE, RING, 'second', 'second', 3600));
      await eventuallyTrue(async () => {
        const now = await labels();
        return moving.every((name) => now.get(name)?.[DRAIN] === 'true');
      }, 'the moving Widgets drained');
      const listed = transport.wholeLists;
      // Shard first lets them go one after the other, as its reconciles acknowledge the drains.
      for (const name of moving) {
        const widget = await client.direct().get(WidgetKind, { namespace: NAMESPACE, name });
        assert.ok(widget);
        await client.patch(widget, mergePatch({ metadata: { labels: { [SHARD]: null, [DRAIN]: null } } }));
        await clock.sleep(ACK_EVERY);
      }
      await eventuallyTrue(async () => {
        const now = await labels();
        return moving.every((name) => now.get(name)?.[SHARD] === 'second');
      }, 'the moving Widgets assigned to shard second');
      const lastAck = clock.monotonic();
      await eventuallyTrue(() => clock.monotonic() - lastAck > 3000, 'three seconds after the last');
      const lists = transport.wholeLists - listed;
      assert.ok(lists >= 1, 'no resync after the burst: its objects’ children created since would wait');
      assert.ok(
        lists <= 2,
        `${lists} lists of the whole ring while ${moving.length} drained Widgets were assigned, one every ${ACK_EVERY} ms`,
      );
    } finally {
      await running.stop();
    }
  });
});
