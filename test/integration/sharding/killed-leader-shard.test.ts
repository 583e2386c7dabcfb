import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { leadingShard } from '../../../src/runtime/sharding/leading-shard.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { assignments } from './in-process-ring.ts';
import { processRing } from './process-ring.ts';
import { overlaps } from './shards.ts';

const NAMESPACE = 'killed-leader';
const WIDGETS = 60;
/** The lease timings of the shard processes, short (ms). */
const LEASE = 10_000;
const RENEW = 7000;
const RETRY = 1000;
const TIMINGS = { LEASE_MS: String(LEASE), RENEW_MS: String(RENEW), RETRY_MS: String(RETRY) };
const SHARDS = ['shard-a', 'shard-b', 'shard-c'];
/** What the moves themselves may take, the new leader's sharder started. */
const MOVES = 3000;

describe('the leader shard process killed -9', () => {
  const ring = processRing(NAMESPACE, WIDGETS);

  it("has its shard's objects moved by the next leader at once, not a lease duration after it leads", async (t) => {
    const { client, shards } = ring;
    for (const name of SHARDS) shards.start(name, { env: TIMINGS });
    await eventuallyTrue(
      async () =>
        [...(await assignments(client, NAMESPACE))].every(
          ([name, shard]) => shard !== undefined && shards.reconciled(shard, name),
        ),
      'every Widget on a shard and reconciled there',
    );
    const leader = await leadingShard(client, NAMESPACE, 'widgets-sharder', 'widgets');
    assert.ok(leader && SHARDS.includes(leader), `the leader is one of the shards (${String(leader)})`);
    const its = [...(await assignments(client, NAMESPACE))].filter(([, s]) => s === leader).map(([n]) => n);
    assert.ok(its.length > 0, 'the leader shard holds Widgets');

    const killedAt = Date.now();
    await shards.kill(leader);
    await eventuallyTrue(
      async () => {
        const now = await assignments(client, NAMESPACE);
        return its.every((name) => {
          const shard = now.get(name);
          return shard !== undefined && shard !== leader;
        });
      },
      `the killed leader's ${its.length} Widgets on the live shards`,
      3 * LEASE,
    );
    const took = Date.now() - killedAt;
    // The next leader takes the leader Lease a lease duration after it last saw it renewed (up to
    // a retry period after the renewal, itself up to a retry period before the kill), on its next
    // attempt; then moves at once. Watching the dead leader's shard Lease for a lease duration of
    // its own would take at least 2 * LEASE - RETRY.
    const bound = LEASE + 2 * RETRY + MOVES;
    t.diagnostic(`moved ${took} ms after the kill (bound ${bound} ms)`);
    assert.ok(
      took <= bound,
      `the killed leader's Widgets moved ${took} ms after the kill: more than a lease duration, two retry periods and ${MOVES} ms (${bound} ms)`,
    );
    const rest = SHARDS.filter((s) => s !== leader);
    await eventuallyTrue(
      () => its.every((name) => rest.some((s) => shards.reconciled(s, name))),
      'the moved Widgets reconciled on the live shards',
    );
    assert.deepEqual(overlaps(shards.intervals), [], 'no Widget reconciled by two shards at once');
  });
});
