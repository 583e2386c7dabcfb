import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { Registry } from 'prom-client';
import { newClient } from '../../../src/runtime/client/client.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { systemClock } from '../../../src/runtime/clock/clock.ts';
import { silentLogger } from '../../../src/runtime/log/logger.ts';
import { Sharder } from '../../../src/runtime/sharding/sharder.ts';
import { ringLeaseInformer } from '../../../src/runtime/sharding/sharder-cache.ts';
import { leadingShard } from '../../../src/runtime/sharding/leading-shard.ts';
import { shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { apiServerLists } from './api-server-lists.ts';
import { processRing } from './process-ring.ts';

const NAMESPACE = 'warm-sharder';
const WIDGETS = 20;
const SHARD = shardLabel('widgets');

describe('a shard process that becomes the leader', () => {
  const ring = processRing(NAMESPACE, WIDGETS);

  /** The shard each Widget is labelled with. */
  async function shardsOfWidgets(): Promise<(string | undefined)[]> {
    const widgets = await ring.client.direct().listAll(WidgetKind, { namespace: NAMESPACE });
    return widgets.map((w) => w.metadata?.labels?.[SHARD]);
  }

  it("moves the old leader's objects from the caches it kept while it waited, listing no Lease", async () => {
    const { client, env, shards } = ring;
    shards.start('shard-a');
    await eventuallyTrue(
      async () => (await leadingShard(client, NAMESPACE, 'widgets-sharder', 'widgets')) === 'shard-a',
      'shard-a to lead',
    );
    shards.start('shard-b');
    await eventuallyTrue(async () => {
      const on = await shardsOfWidgets();
      return on.includes('shard-a') && on.includes('shard-b') && on.every((s) => s !== undefined);
    }, 'the Widgets spread over shard-a and shard-b');
    // Started and synced: shard-b reconciled the Widgets it was given.
    await eventuallyTrue(async () => {
      const widgets = await client.direct().listAll(WidgetKind, { namespace: NAMESPACE });
      return widgets
        .filter((w) => w.metadata?.labels?.[SHARD] === 'shard-b')
        .every((w) => shards.reconciled('shard-b', w.metadata?.name ?? ''));
    }, 'shard-b to reconcile its Widgets');
    const before = await apiServerLists(env, ['leases']);
    assert.equal(await shards.terminate('shard-a'), 0, shards.stderr('shard-a'));
    await eventuallyTrue(
      async () => (await shardsOfWidgets()).every((s) => s === 'shard-b'),
      'every Widget on shard-b',
    );
    const after = await apiServerLists(env, ['leases']);
    // Its sharder's Leases (and unassigned objects) were cached before it led: a new leader that
    // lists them first moves nothing until they are listed (a second at 15,000 objects a kind).
    assert.equal(
      (after['leases'] ?? 0) - (before['leases'] ?? 0),
      0,
      `shard-b listed the ring's Leases ${(after['leases'] ?? 0) - (before['leases'] ?? 0)} times as it took over from shard-a`,
    );
  });

  it('returns at once when its leadership ended before it ran', async () => {
    const { env } = ring;
    const transport = transportFor(env.kubeConfig);
    const leases = ringLeaseInformer({
      ring: 'widgets',
      leaseNamespace: NAMESPACE,
      transport,
      logger: silentLogger,
    });
    const caches = new AbortController();
    leases.start(caches.signal);
    try {
      assert.ok(await leases.waitForSync(caches.signal));
      const sharder = new Sharder({
        ring: 'widgets',
        kinds: [{ kind: WidgetKind, controlled: [] }],
        leaseNamespace: NAMESPACE,
        namespace: NAMESPACE,
        client: newClient({ transport }),
        transport,
        retryPeriod: 1000,
        leaseDuration: 8000,
        resyncPeriod: 600_000,
        concurrentMoves: 2,
        clock: systemClock,
        logger: silentLogger,
        registry: new Registry(),
        leases,
      });
      const ended = sharder.run(AbortSignal.abort()).then(() => true);
      const waited = await Promise.race([ended, delay(5000).then(() => false)]);
      assert.ok(waited, 'the sharder of a leadership already over still runs 5 s later');
    } finally {
      caches.abort();
    }
  });
});
