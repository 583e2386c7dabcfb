import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { runOnTickingClock, shardLease, ThrottledTransport, widgetSharder } from './fake-clock-sharder.ts';
import { ringEnvironment } from './ring-environment.ts';

const NAMESPACE = 'failed-resync';
/** The ring of a shard that left while the lists fail. */
const RELEASED_RING = 'released';
/** The sharder's retry period (ms, on the test's clock). */
const RETRY = 500;
/** How long the lists keep failing (ms, on the test's clock). */
const FAILING = 60_000;

describe("the sharder's resyncs while listing the ring fails", () => {
  const api = ringEnvironment(NAMESPACE);

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
