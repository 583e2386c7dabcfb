import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { transportFor, type RestRequest, type Transport } from '../../../src/runtime/client/transport.ts';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { drainLabel, shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { runOnTickingClock, shardLease, widgetSharder } from './fake-clock-sharder.ts';
import { createWidgets } from './in-process-ring.ts';
import { ringEnvironment } from './ring-environment.ts';

const NAMESPACE = 'unlistable-departed';
const RING = 'unlistable';
const RETRY = 500;
const LABEL = shardLabel(RING);

class CountingTransport implements Transport {
  whole = 0;
  selected = 0;
  failed = 0;
  readonly inner: Transport;
  constructor(inner: Transport) {
    this.inner = inner;
  }
  async request<T>(req: RestRequest): Promise<T> {
    const list = req.method === 'GET' && /\/widgets(\?|$)/.test(req.path);
    if (list && req.path.includes('labelSelector')) this.selected++;
    else if (list) this.whole++;
    try {
      return await this.inner.request<T>(req);
    } catch (err) {
      if (list) this.failed++;
      throw err;
    }
  }
  stream: Transport['stream'] = (path, signal, accept) => this.inner.stream(path, signal, accept);
}

describe('a departed shard whose name is no label value', () => {
  const api = ringEnvironment(NAMESPACE);

  it('does not stop the ring from being resynced', async () => {
    const { env, client } = api;
    const clock = new FakeClock(Date.now());
    await client.create(shardLease(clock, NAMESPACE, RING, 'first', 'first', 3600));
    await createWidgets(client, NAMESPACE, 'w', 6);
    for (const w of await client.direct().listAll(WidgetKind, { namespace: NAMESPACE }))
      await client.patch(w, mergePatch({ metadata: { labels: { [LABEL]: 'first' } } }));
    // A released Lease of the ring, its name 70 characters: a valid object name, no label value.
    await client.create(shardLease(clock, NAMESPACE, RING, `x${'a'.repeat(69)}`, '', 1));
    const transport = new CountingTransport(transportFor(env.kubeConfig));
    const running = runOnTickingClock(widgetSharder(NAMESPACE, RING, transport, clock, 15_000, RETRY), clock);
    try {
      const start = clock.monotonic();
      await eventuallyTrue(() => clock.monotonic() - start >= 10_000, '10 s of the sharder', 30_000);
      // A shard joins: half the Widgets should be drained towards it.
      await client.create(shardLease(clock, NAMESPACE, RING, 'second', 'second', 3600));
      const joined = clock.monotonic();
      await eventuallyTrue(() => clock.monotonic() - joined >= 20_000, '20 s after the join', 30_000);
      const widgets = await client.direct().listAll(WidgetKind, { namespace: NAMESPACE });
      const drained = widgets.filter((w) => w.metadata?.labels?.[drainLabel(RING)] !== undefined).length;
      assert.ok(
        transport.whole > 0,
        `the whole ring was never listed (${transport.selected} label-selected lists, ${transport.failed} failed; ${drained} Widgets drained after the join)`,
      );
    } finally {
      await running.stop();
    }
  });
});
