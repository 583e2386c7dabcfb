import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LeaseKind } from '../../../src/runtime/client/kinds.ts';
import { leadingShard } from '../../../src/runtime/sharding/leading-shard.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { processRing } from './process-ring.ts';

const NAMESPACE = 'released-leader';
/** A retry period long beside what a hand-over of the leader Lease takes (ms). */
const RETRY = 15_000;
/** As sharding allows them: a renew deadline over 1.2 retry periods, a lease of it and 2 retry periods. */
const TIMINGS = { LEASE_MS: '50000', RENEW_MS: '18500', RETRY_MS: String(RETRY) };
/** From the leader's SIGTERM until the next leader holds the Lease: its drain, release, and a watch event. */
const BOUND = 5000;

describe('the leader shard process sent SIGTERM', () => {
  const ring = processRing(NAMESPACE, 10);

  it('hands the leader Lease to a waiting shard process at once, not at its next retry', async (t) => {
    const { client, shards } = ring;
    const leader = (): Promise<string | undefined> =>
      leadingShard(client, NAMESPACE, 'widgets-sharder', 'widgets');
    shards.start('shard-a', { env: TIMINGS });
    await eventuallyTrue(async () => (await leader()) === 'shard-a', 'shard-a to lead');
    shards.start('shard-b', { env: TIMINGS });
    // Its shard Lease is taken as it first tries the leader Lease: its next try is a retry period on.
    await eventuallyTrue(
      async () =>
        (await client.direct().get(LeaseKind, { namespace: NAMESPACE, name: 'shard-b' }))?.spec
          ?.holderIdentity === 'shard-b',
      'shard-b to hold its shard Lease',
    );
    const signalled = Date.now();
    assert.equal(await shards.terminate('shard-a'), 0, shards.stderr('shard-a'));
    await eventuallyTrue(async () => (await leader()) === 'shard-b', 'shard-b to lead', 2 * RETRY);
    const took = Date.now() - signalled;
    t.diagnostic(`shard-b led ${took} ms after shard-a's SIGTERM (retry period ${RETRY} ms)`);
    assert.ok(took < BOUND, `shard-b led ${took} ms after shard-a's SIGTERM (retry period ${RETRY} ms)`);
  });
});
