import assert from 'node:assert/strict';
import type { V1Lease } from '@kubernetes/client-node';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import type { Environment } from '../../../src/envtest/index.ts';
import { MicroTimeDate } from '../../../src/runtime/api/micro-time-date.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { LeaseKind } from '../../../src/runtime/client/kinds.ts';
import { transportFor, type RestRequest, type Transport } from '../../../src/runtime/client/transport.ts';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { silentLogger } from '../../../src/runtime/log/logger.ts';
import { RING_LABEL, SHARDER_IDENTITY, shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { Sharder } from '../../../src/runtime/sharding/sharder.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { startRingEnvironment } from './ring-environment.ts';

const NAMESPACE = 'held';
const RING = 'held';
const SHARD = shardLabel(RING);
const LEASE_DURATION = 4000;

/**
 * The real transport, but a Widget PATCH first waits `throttle` ms on the test's clock, as one
 * answered 429 with a Retry-After does, and is sent only if its signal has not aborted by then.
 */
class ThrottledTransport implements Transport {
  throttle = 0;
  sent = 0;
  readonly #inner: Transport;
  readonly #clock: FakeClock;

  constructor(inner: Transport, clock: FakeClock) {
    this.#inner = inner;
    this.#clock = clock;
  }

  async request<T>(req: RestRequest): Promise<T> {
    if (req.method === 'PATCH' && req.path.includes('/widgets/')) {
      await this.#clock.sleep(this.throttle, req.signal);
      req.signal?.throwIfAborted();
      this.sent++;
    }
    return this.#inner.request<T>(req);
  }

  stream: Transport['stream'] = (path, signal, accept) => this.#inner.stream(path, signal, accept);
}

describe("the sharder's moves of a gone shard's objects", () => {
  let env: Environment;
  let client: Client;

  before(async () => {
    ({ env, client } = await startRingEnvironment(NAMESPACE));
  });
  after(async () => {
    await env.stop();
  });

  it('are not sent after half the hold of its Lease, however long the write was held back', async () => {
    const clock = new FakeClock(Date.now());
    const now = new MicroTimeDate(clock.now());
    const leaseOf = (name: string, holder: string, seconds: number): V1Lease => ({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name, namespace: NAMESPACE, labels: { [RING_LABEL]: RING } },
      spec: { holderIdentity: holder, leaseDurationSeconds: seconds, acquireTime: now, renewTime: now },
    });
    await client.create(leaseOf('live', 'live', 3600));
    // Released by a shard that stopped: the sharder holds it before it moves the objects.
    await client.create(leaseOf('gone', '', 1));
    await client.create({
      apiVersion: WidgetKind.apiVersion,
      kind: WidgetKind.kind,
      metadata: { name: 'w', namespace: NAMESPACE, labels: { [SHARD]: 'gone' } },
      spec: { size: 1 },
    });
    const transport = new ThrottledTransport(transportFor(env.kubeConfig), clock);
    transport.throttle = LEASE_DURATION;
    const sharder = new Sharder({
      ring: RING,
      kinds: [{ kind: WidgetKind, controlled: [] }],
      leaseNamespace: NAMESPACE,
      namespace: NAMESPACE,
      client: newClient({ transport }),
      transport,
      retryPeriod: 500,
      leaseDuration: LEASE_DURATION,
      resyncPeriod: 600_000,
      concurrentMoves: 1,
      clock,
      logger: silentLogger,
      registry: new Registry(),
    });
    const stop = new AbortController();
    const run = sharder.run(stop.signal);
    const ticking = setInterval(() => clock.advance(100), 10);
    try {
      const widget = async (): Promise<string | undefined> =>
        (await client.direct().get(WidgetKind, { namespace: NAMESPACE, name: 'w' }))?.metadata?.labels?.[
          SHARD
        ];
      const held = async (): Promise<boolean> =>
        (await client.direct().get(LeaseKind, { namespace: NAMESPACE, name: 'gone' }))?.spec
          ?.holderIdentity === SHARDER_IDENTITY;
      await eventuallyTrue(held, 'the sharder holding the gone shard’s Lease');
      const heldAt = clock.monotonic();
      await eventuallyTrue(() => clock.monotonic() - heldAt > 3 * LEASE_DURATION, 'three lease durations');
      assert.equal(transport.sent, 0, 'a move sent after half the hold of the Lease');
      assert.equal(await widget(), 'gone');

      transport.throttle = LEASE_DURATION / 4;
      await eventuallyTrue(async () => (await widget()) === 'live', 'the Widget moved to the live shard');
    } finally {
      clearInterval(ticking);
      stop.abort();
      await run;
    }
  });
});
