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
/** The ring of a shard that left while the lists fail. */
const RELEASED_RING = 'released';
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
    transport.failLists = true;
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
      transport.failLists = false;
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

  it("move a gone shard's objects a retry period after the lists work again, not a minute", async () => {
    const { env, client } = api;
    const clock = new FakeClock(Date.now());
    await client.create(shardLease(clock, NAMESPACE, RELEASED_RING, 'live', 'live', 3600));
    // Released: the shard stopped, and its objects are to be moved at once.
    await client.create(shardLease(clock, NAMESPACE, RELEASED_RING, 'gone', '', 1));
    for (let i = 0; i < 3; i++)
      await client.create({
        apiVersion: WidgetKind.apiVersion,
        kind: WidgetKind.kind,
        metadata: {
          name: `gone-${i}`,
          namespace: NAMESPACE,
          labels: { [shardLabel(RELEASED_RING)]: 'gone' },
        },
        spec: { size: 1 },
      });
    const transport = new ThrottledTransport(transportFor(env.kubeConfig), clock);
    transport.failLists = true;
    const running = runOnTickingClock(
      widgetSharder(NAMESPACE, RELEASED_RING, transport, clock, 15_000, RETRY),
      clock,
    );
    try {
      const start = clock.monotonic();
      await eventuallyTrue(() => clock.monotonic() - start >= FAILING, 'a minute of failing lists', 30_000);
      transport.failLists = false;
      const recovered = clock.monotonic();
      await eventuallyTrue(
        async () =>
          (await client.direct().listAll(WidgetKind, { namespace: NAMESPACE }))
            .filter((w) => w.metadata?.name?.startsWith('gone-'))
            .every((w) => w.metadata?.labels?.[shardLabel(RELEASED_RING)] === 'live'),
        "the gone shard's Widgets moved",
        60_000,
      );
      const waited = clock.monotonic() - recovered;
      assert.ok(
        waited < 5 * RETRY,
        `the gone shard's objects moved ${waited} ms after the lists worked again (retry period ${RETRY} ms)`,
      );
    } finally {
      await running.stop();
    }
  });
});
