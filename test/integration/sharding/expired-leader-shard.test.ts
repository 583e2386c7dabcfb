import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import type { Environment } from '../../../src/envtest/index.ts';
import { MicroTimeDate } from '../../../src/runtime/api/micro-time-date.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { silentLogger } from '../../../src/runtime/log/logger.ts';
import {
  HOLDER_PROCESS_ANNOTATION,
  RING_LABEL,
  shardLabel,
} from '../../../src/runtime/sharding/shard-labels.ts';
import { Sharder } from '../../../src/runtime/sharding/sharder.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { startRingEnvironment } from './ring-environment.ts';

const NAMESPACE = 'expired-leader';
const RING = 'leader';
const SHARD = shardLabel(RING);
const LEASE_DURATION = 15_000;

describe("a new leader's sharder", () => {
  let env: Environment;
  let client: Client;

  before(async () => {
    ({ env, client } = await startRingEnvironment(NAMESPACE));
  });
  after(async () => {
    await env.stop();
  });

  /** Shard `name`'s Lease, renewed now by process `process` for a lease duration. */
  async function shardLease(clock: FakeClock, name: string, process: string): Promise<void> {
    const now = new MicroTimeDate(clock.now());
    await client.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name,
        namespace: NAMESPACE,
        labels: { [RING_LABEL]: RING },
        annotations: { [HOLDER_PROCESS_ANNOTATION]: process },
      },
      spec: {
        holderIdentity: name,
        leaseDurationSeconds: LEASE_DURATION / 1000,
        acquireTime: now,
        renewTime: now,
      },
    });
  }

  async function shardOf(name: string): Promise<string | undefined> {
    const widget = await client.direct().get(WidgetKind, { namespace: NAMESPACE, name });
    return widget?.metadata?.labels?.[SHARD];
  }

  it("moves the objects of the previous leader's shard at once, and no other shard's", async () => {
    // The clock stands still: a shard whose Lease must be watched for a lease duration stays.
    const clock = new FakeClock(Date.now());
    await shardLease(clock, 'old-leader', 'host_process-1');
    await shardLease(clock, 'quiet', 'host_process-2');
    await shardLease(clock, 'live', 'host_process-3');
    for (const [name, shard] of [
      ['from-leader', 'old-leader'],
      ['from-quiet', 'quiet'],
    ] as const)
      await client.create({
        apiVersion: WidgetKind.apiVersion,
        kind: WidgetKind.kind,
        metadata: { name, namespace: NAMESPACE, labels: { [SHARD]: shard } },
        spec: { size: 1 },
      });
    const transport = transportFor(env.kubeConfig);
    const sharder = new Sharder({
      ring: RING,
      kinds: [{ kind: WidgetKind, controlled: [] }],
      leaseNamespace: NAMESPACE,
      namespace: NAMESPACE,
      client: newClient({ transport }),
      transport,
      retryPeriod: 2000,
      leaseDuration: LEASE_DURATION,
      resyncPeriod: 600_000,
      concurrentMoves: 1,
      clock,
      logger: silentLogger,
      registry: new Registry(),
      // This process took the leader Lease from process-1 once it expired on this clock.
      expiredProcess: 'host_process-1',
    });
    const stop = new AbortController();
    const running = sharder.run(stop.signal);
    try {
      await eventuallyTrue(
        async () => (await shardOf('from-leader')) !== 'old-leader',
        "the previous leader's Widget moved, the clock standing still",
        20_000,
      );
      assert.notEqual(await shardOf('from-leader'), undefined);
      assert.equal(await shardOf('from-quiet'), 'quiet', 'a shard not seen expire here keeps its Widget');
    } finally {
      stop.abort();
      await running;
    }
  });
});
