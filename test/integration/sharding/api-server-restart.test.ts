import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LeaseKind } from '../../../src/runtime/client/kinds.ts';
import { leadingShard } from '../../../src/runtime/sharding/leading-shard.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import {
  cachesHoldShares,
  convergedOn,
  createWidgets,
  InProcessRing,
  RING,
  type InProcessShard,
  type ShardRun,
} from './in-process-ring.ts';
import { ringEnvironment } from './ring-environment.ts';
import { overlaps } from './shards.ts';

const SHARDS = ['shard-a', 'shard-b', 'shard-c'];
/**
 * Leases that outlast the restart (a kill, up to 3 s down, the server's start), as the defaults
 * (15 s, renew deadline 10 s) outlast a control plane's rolling restart.
 */
const OUTLASTING: ShardRun = { leaseDuration: 20_000, renewDeadline: 15_000 };
/** A lease whose renew deadline (2.5 s) passes while the server is down. */
const SHORT: ShardRun = { leaseDuration: 4000, renewDeadline: 2500 };

describe('a ring of 3 shards through a killed and restarted API server', () => {
  const rings: InProcessRing[] = [];
  const shards: InProcessShard[] = [];

  after(async () => {
    await Promise.all(shards.map((s) => s.stop().catch(() => undefined)));
  });
  const api = ringEnvironment('restarted');
  before(async () => {
    await api.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'healed' } });
  });

  async function holder(namespace: string, name: string): Promise<string | undefined> {
    const lease = await api.client.direct().get(LeaseKind, { namespace, name });
    return lease?.spec?.holderIdentity ?? undefined;
  }

  /** A ring in `namespace` with 30 Widgets; its first shard leads, so runs the sharder. */
  async function startRing(
    namespace: string,
    runs: Record<string, ShardRun>,
  ): Promise<{ ring: InProcessRing; started: InProcessShard[] }> {
    await createWidgets(api.client, namespace, 'before', 30);
    const ring = new InProcessRing(api.env, namespace);
    rings.push(ring);
    const started: InProcessShard[] = [];
    for (const [name, run] of Object.entries(runs)) {
      started.push(await ring.start(name, run));
      if (started.length === 1)
        await eventuallyTrue(
          async () => (await leadingShard(api.client, namespace, `${RING}-sharder`, RING)) === name,
          `${name} to lead`,
        );
    }
    shards.push(...started);
    await convergedOn(api.client, namespace, ring, SHARDS);
    return { ring, started };
  }

  it('keeps every shard, each Widget on exactly one, and assigns the Widgets created after', async () => {
    const namespace = 'restarted';
    const { ring, started } = await startRing(
      namespace,
      Object.fromEntries(SHARDS.map((name) => [name, OUTLASTING])),
    );

    await api.env.restartApiServer({ crash: true, downtimeMs: 2000 });
    await createWidgets(api.client, namespace, 'after', 30);

    // Each Widget, old or new, carries the label of its shard in the 3-shard ring, the one shard
    // that watches it, which has reconciled it since; and each cache holds just its share.
    await convergedOn(api.client, namespace, ring, SHARDS);
    await cachesHoldShares(api.client, namespace, started);
    assert.deepEqual(
      started.filter((s) => s.stopped()).map((s) => s.name),
      [],
      'no shard stopped',
    );
    for (const name of SHARDS) assert.equal(await holder(namespace, name), name, `${name} holds its Lease`);
    assert.equal(
      await leadingShard(api.client, namespace, `${RING}-sharder`, RING),
      'shard-a',
      'the sharder kept its lease',
    );
  });

  it('moves the Widgets of a shard that stopped when its renew deadline passed in the outage', async () => {
    const namespace = 'healed';
    const { ring, started } = await startRing(namespace, {
      'shard-a': OUTLASTING,
      'shard-b': OUTLASTING,
      'shard-c': SHORT,
    });
    const victim = started.find((s) => s.name === 'shard-c');
    assert.ok(victim);

    await api.env.restartApiServer({ crash: true, downtimeMs: 3000 });
    await createWidgets(api.client, namespace, 'after', 30);

    await eventuallyTrue(() => victim.stopped(), 'shard-c to stop, its shard Lease lost');
    const rest = started.filter((s) => s !== victim);
    await convergedOn(api.client, namespace, ring, ['shard-a', 'shard-b']);
    await cachesHoldShares(api.client, namespace, rest);
    assert.deepEqual(
      rest.filter((s) => s.stopped()).map((s) => s.name),
      [],
      'no other shard stopped',
    );
  });

  it('never had one Widget reconciled by two shards at once', () => {
    for (const ring of rings) assert.deepEqual(overlaps(ring.intervals).slice(0, 10), []);
  });
});
