import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { processRing } from './process-ring.ts';
import { overlaps } from './shards.ts';

const NAMESPACE = 'same-name';
const WIDGETS = 40;
const SHARD = shardLabel('widgets');

describe('two shard processes given one shard name', () => {
  const ring = processRing(NAMESPACE, WIDGETS);

  async function names(): Promise<string[]> {
    const widgets = await ring.client.direct().listAll(WidgetKind, { namespace: NAMESPACE });
    return widgets.map((w) => w.metadata?.name ?? '');
  }

  /** Changes every Widget, so that the shard holding them reconciles each again. */
  async function touchAll(round: number): Promise<void> {
    for (const widget of await ring.client.direct().listAll(WidgetKind, { namespace: NAMESPACE }))
      await ring.client.patch(widget, mergePatch({ spec: { size: round } }));
  }

  /** Whether process `name` reconciled every Widget after `since` (index into the intervals). */
  function reconciledAllSince(name: string, since: number, all: readonly string[]): boolean {
    const done = new Set(
      ring.shards.intervals
        .slice(since)
        .flatMap((i) => (i.shard === name && i.end !== undefined ? [i.name] : [])),
    );
    return all.every((n) => done.has(n));
  }

  it('runs one of them: the other waits, says why, and takes over once the first is gone', async () => {
    const all = await names();
    ring.shards.start('first', { shardName: 'twin' });
    await eventuallyTrue(async () => {
      const widgets = await ring.client.direct().listAll(WidgetKind, { namespace: NAMESPACE });
      return (
        widgets.every((w) => w.metadata?.labels?.[SHARD] === 'twin') && reconciledAllSince('first', 0, all)
      );
    }, 'the first process to reconcile every Widget on shard twin');

    ring.shards.start('second', { shardName: 'twin' });
    await eventuallyTrue(
      () => ring.shards.stderr('second').includes('held by another process'),
      `the second process to say its shard's Lease is held by another process; its stderr:\n${ring.shards.stderr('second')}`,
      30_000,
    );
    const before = ring.shards.intervals.length;
    await touchAll(2);
    await eventuallyTrue(
      () => reconciledAllSince('first', before, all),
      'the first to reconcile the changes',
    );
    // A few more retry periods (1 s) for the second to have run, were it running.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.deepEqual(
      ring.shards.intervals.filter((i) => i.shard === 'second').map((i) => i.name),
      [],
      'the second process reconciled nothing while the first held the shard',
    );
    assert.match(ring.shards.stderr('second'), /two processes were given the shard name \\"twin\\"/);

    await ring.shards.kill('first');
    const afterKill = ring.shards.intervals.length;
    await touchAll(3);
    await eventuallyTrue(
      () => reconciledAllSince('second', afterKill, all),
      'the second process to take the shard over and reconcile every Widget',
      60_000,
    );
    assert.deepEqual(overlaps(ring.shards.intervals), [], 'no Widget reconciled by both processes at once');
  });
});
