import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MicroTimeDate } from '../../../src/runtime/api/micro-time-date.ts';
import { isConflict } from '../../../src/runtime/client/api-error.ts';
import type { Client } from '../../../src/runtime/client/client.ts';
import { LeaseKind } from '../../../src/runtime/client/kinds.ts';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { HOLDER_PROCESS_ANNOTATION, shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { processRing } from './process-ring.ts';
import { overlaps } from './shards.ts';

const NAMESPACE = 'renewed-by-another';
const WIDGETS = 40;
const SHARD = shardLabel('widgets');

/**
 * Another program given the shard name `name`, renewing its Lease as client-go's LeaseLock, the
 * external sharding project's shard and this runtime before the per-process mark all do: it holds
 * the Lease while the holder is its identity (the shard name), and updates the Lease as it read
 * it, annotations included, only the renew time new.
 */
class ForeignRenewer {
  /** How many renewals landed. */
  renewals = 0;
  readonly #stop = new AbortController();
  readonly #running: Promise<void>;

  constructor(client: Client, name: string, periodMs: number) {
    this.#running = this.#run(client, name, periodMs);
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#running;
  }

  async #run(client: Client, name: string, periodMs: number): Promise<void> {
    while (!this.#stop.signal.aborted) {
      const lease = await client.direct().get(LeaseKind, { namespace: NAMESPACE, name });
      if (lease?.spec?.holderIdentity === name) {
        try {
          await client.update({
            ...lease,
            spec: { ...lease.spec, renewTime: new MicroTimeDate(Date.now()) },
          });
          this.renewals++;
        } catch (err) {
          if (!isConflict(err)) throw err;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, periodMs));
    }
  }
}

describe('a shard Lease renewed by another writer that keeps the Lease as it read it', () => {
  const ring = processRing(NAMESPACE, WIDGETS);

  async function touchAll(round: number): Promise<void> {
    for (const widget of await ring.client.direct().listAll(WidgetKind, { namespace: NAMESPACE }))
      await ring.client.patch(widget, mergePatch({ spec: { size: round } }));
  }

  /** Whether process `name` reconciled every Widget after `since` (index into the intervals). */
  function reconciledAllSince(name: string, since: number): boolean {
    const done = new Set(
      ring.shards.intervals
        .slice(since)
        .flatMap((i) => (i.shard === name && i.end !== undefined ? [i.name] : [])),
    );
    return done.size === WIDGETS;
  }

  it('stops the process whose mark it carries, and keeps the next one out until it expires', async () => {
    const { client, shards } = ring;
    shards.start('first', { shardName: 'twin' });
    await eventuallyTrue(async () => {
      const widgets = await client.direct().listAll(WidgetKind, { namespace: NAMESPACE });
      return widgets.every((w) => w.metadata?.labels?.[SHARD] === 'twin') && reconciledAllSince('first', 0);
    }, 'the first process to reconcile every Widget on shard twin');
    const lease = await client.direct().get(LeaseKind, { namespace: NAMESPACE, name: 'twin' });
    assert.ok(lease?.metadata?.annotations?.[HOLDER_PROCESS_ANNOTATION], 'the first process marks its Lease');

    // The other program renews every second, as the first does: both read holder "twin".
    const foreign = new ForeignRenewer(client, 'twin', 1000);
    try {
      await eventuallyTrue(() => foreign.renewals > 0, 'the other writer to renew the Lease');
      // The first process sees a renewal it did not write at its next one (a second).
      await eventuallyTrue(
        () => shards.exitedAt('first') !== undefined,
        `the first process to stop running shard twin; its stderr:\n${shards.stderr('first')}`,
        10_000,
      );
      const log = shards.stderr('first');
      assert.match(
        log,
        /shard twin's Lease renewed-by-another\/twin is held by another process that does not mark it/,
      );
      assert.match(log, /this one stops running the shard/);
      assert.match(log, /Give each process its own shard name \(--shard-name, SHARD_NAME/);

      // A process of that name started now waits, though it leads (the first's leader Lease
      // expired) and the Lease still carries the mark of the first, which is gone.
      shards.start('second', { shardName: 'twin' });
      const firstProcess = lease.metadata.annotations[HOLDER_PROCESS_ANNOTATION];
      await eventuallyTrue(
        async () => {
          const leader = await client
            .direct()
            .get(LeaseKind, { namespace: NAMESPACE, name: 'widgets-sharder' });
          return (leader?.spec?.holderIdentity ?? firstProcess) !== firstProcess;
        },
        'the second process to take the leader Lease',
        30_000,
      );
      assert.match(
        shards.stderr('second'),
        /shard twin's Lease renewed-by-another\/twin is held by another process/,
      );
      await touchAll(2);
      // Two lease durations (8 s): long enough for the Lease to be taken, were it not renewed.
      await new Promise((resolve) => setTimeout(resolve, 16_000));
      assert.deepEqual(
        shards.intervals.filter((i) => i.shard === 'second').map((i) => i.name),
        [],
        'the second process reconciled while the other writer renewed its Lease',
      );
      const renewed = await client.direct().get(LeaseKind, { namespace: NAMESPACE, name: 'twin' });
      assert.equal(renewed?.spec?.holderIdentity, 'twin', 'the sharder took the renewed Lease over');
    } finally {
      await foreign.stop();
    }
    const since = shards.intervals.length;
    await touchAll(3);
    await eventuallyTrue(
      () => reconciledAllSince('second', since),
      'the second process to take the Lease once it expired, and reconcile every Widget',
    );
    assert.deepEqual(overlaps(shards.intervals), [], 'no Widget reconciled by both processes at once');
  });
});
