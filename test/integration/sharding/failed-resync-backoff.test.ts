import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { runOnTickingClock, shardLease, ThrottledTransport, widgetSharder } from './fake-clock-sharder.ts';
import { createWidgets } from './in-process-ring.ts';
import { ringEnvironment } from './ring-environment.ts';

const NAMESPACE = 'failed-resync';
const RING = 'failing';
/** The sharder's retry period (ms, on the test's clock). */
const RETRY = 500;
/** How long the lists keep failing (ms, on the test's clock). */
const FAILING = 60_000;

describe("the sharder's resyncs while listing the ring fails", () => {
  const api = ringEnvironment(NAMESPACE);

  it('back off from a second to a minute, and list again at once when the ring changes', async () => {
    const { env, client } = api;
    const clock = new FakeClock(Date.now());
    await client.create(shardLease(clock, NAMESPACE, RING, 'first', 'first', 3600));
    await createWidgets(client, NAMESPACE, 'w', 4);
    for (const widget of await client.direct().listAll(WidgetKind, { namespace: NAMESPACE }))
      await client.patch(widget, mergePatch({ metadata: { labels: { [shardLabel(RING)]: 'first' } } }));
    const transport = new ThrottledTransport(transportFor(env.kubeConfig), clock);
    transport.failWholeLists = true;
    const running = runOnTickingClock(widgetSharder(NAMESPACE, RING, transport, clock, 15_000, RETRY), clock);
    try {
      await eventuallyTrue(() => transport.wholeLists > 0, 'the first resync');
      const start = clock.monotonic();
      await eventuallyTrue(() => clock.monotonic() - start >= FAILING, 'a minute of failing lists', 30_000);
      const failed = transport.wholeLists;
      // 1 s, 2 s, 4 s, … 32 s: seven lists in a minute; a retry every period made 120.
      assert.ok(failed <= 9, `${failed} lists of the whole ring in ${FAILING / 1000} s of failures`);
      assert.ok(failed >= 5, `${failed} lists of the whole ring: the failed resyncs are retried`);
      // A shard joining is not held back by the pause the failures built up.
      transport.failWholeLists = false;
      await client.create(shardLease(clock, NAMESPACE, RING, 'second', 'second', 3600));
      const joined = clock.monotonic();
      await eventuallyTrue(() => transport.wholeLists > failed, 'a resync for the ring that changed');
      assert.ok(
        clock.monotonic() - joined < 5 * RETRY,
        `the ring's change was resynced ${clock.monotonic() - joined} ms after it`,
      );
    } finally {
      await running.stop();
    }
  });
});
