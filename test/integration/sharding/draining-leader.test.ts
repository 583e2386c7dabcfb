import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LeaseKind } from '../../../src/runtime/client/kinds.ts';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { HashRing } from '../../../src/runtime/sharding/hash-ring.ts';
import { leadingShard } from '../../../src/runtime/sharding/leading-shard.ts';
import { ringKeyOf } from '../../../src/runtime/sharding/ring-key.ts';
import { SHARDER_IDENTITY, shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { processRing } from './process-ring.ts';
import { overlaps } from './shards.ts';

const NAMESPACE = 'draining-leader';
const WIDGETS = 20;
const SHARD = shardLabel('widgets');
const SCRIPT = 'draining-leader.ts';
/** The lease timings of the shard processes, short (ms). */
const TIMINGS = { LEASE_MS: '4000', RENEW_MS: '2500', RETRY_MS: '500' };

describe('a leader that stops leading while its shard still drains', () => {
  const ring = processRing(NAMESPACE, WIDGETS);

  function started(process: string, name: string, since = 0): boolean {
    return ring.shards.intervals.slice(since).some((i) => i.shard === process && i.name === name);
  }

  it('keeps its shard until that shard stops renewing, though its leader Lease expired', async () => {
    const { client, shards } = ring;
    // Leader-only and sharded reconciles that ignore their signal, drained for 8 s each.
    shards.start('p', { script: SCRIPT, env: { ...TIMINGS, STUCK: '1', GRACE_MS: '8000' } });
    await eventuallyTrue(
      async () => (await leadingShard(client, NAMESPACE, 'widgets-sharder', 'widgets')) === 'p',
      'p to lead',
    );
    shards.start('m', { script: SCRIPT, env: TIMINGS });
    const hashRing = new HashRing(['m', 'p']);
    await eventuallyTrue(async () => {
      const widgets = await client.direct().listAll(WidgetKind, { namespace: NAMESPACE });
      return widgets.every((w) => {
        const home = hashRing.shardFor(ringKeyOf(WidgetKind, w)) ?? '';
        return w.metadata?.labels?.[SHARD] === home && started(home, w.metadata?.name ?? '');
      });
    }, 'every Widget on its shard of m and p, reconciled there');
    const widgets = await client.direct().listAll(WidgetKind, { namespace: NAMESPACE });
    const stuck = widgets.find((w) => w.metadata?.labels?.[SHARD] === 'p');
    assert.ok(stuck, 'a Widget on p');
    const stuckName = stuck.metadata?.name ?? '';

    await client.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'slow', namespace: NAMESPACE },
    });
    await eventuallyTrue(() => started('p', 'configmap/slow'), "p's leader reconcile of slow to start");
    const since = shards.intervals.length;
    await client.patch(stuck, mergePatch({ spec: { size: 99 } }));
    await eventuallyTrue(() => started('p', stuckName, since), `p's reconcile of ${stuckName} to start`);

    // p's leader-only controllers halt: the leader drains 8 s and keeps its Lease to expire, then
    // its shard drains 8 s more, renewing the shard's Lease all along.
    const deadline = Date.now() + 60_000;
    let leaderAt: number | undefined;
    let takenOverAt: number | undefined;
    const watching = (async () => {
      while (takenOverAt === undefined && Date.now() < deadline) {
        if (
          leaderAt === undefined &&
          (await leadingShard(client, NAMESPACE, 'widgets-sharder', 'widgets')) === 'm'
        )
          leaderAt = Date.now();
        const lease = await client.direct().get(LeaseKind, { namespace: NAMESPACE, name: 'p' });
        if (lease?.spec?.holderIdentity === SHARDER_IDENTITY)
          takenOverAt = Date.parse(String(lease.spec.acquireTime ?? ''));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    await client.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'panic', namespace: NAMESPACE },
    });
    await watching;
    const exitedAt = shards.exitedAt('p');
    assert.ok(
      leaderAt !== undefined && exitedAt !== undefined && leaderAt < exitedAt,
      'm led while p drained',
    );
    assert.ok(takenOverAt !== undefined, "the sharder took p's Lease over");
    assert.ok(
      takenOverAt >= exitedAt,
      `p's shard declared dead ${exitedAt - takenOverAt} ms before p stopped renewing its Lease and exited`,
    );
    await eventuallyTrue(
      () => started('m', stuckName, since),
      `${stuckName} handed over to m and reconciled there`,
    );
    assert.deepEqual(overlaps(shards.intervals), [], 'no Widget reconciled by p and m at once');
  });
});
