import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { objectRef } from '../../../src/runtime/client/object-key.ts';
import { restConfigOf } from '../../../src/runtime/config/rest-config-source.ts';
import { HashRing } from '../../../src/runtime/sharding/hash-ring.ts';
import { leadingShard } from '../../../src/runtime/sharding/leading-shard.ts';
import { ringKeyOf } from '../../../src/runtime/sharding/ring-key.ts';
import { drainLabel, shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { compactEtcd } from '../../support/etcd-compaction.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { SeverableProxy } from '../../support/severable-proxy.ts';
import { WidgetKind } from '../controller/support.ts';
import {
  assignments,
  cachesHoldShares,
  convergedOn,
  createWidgets,
  InProcessRing,
  RING,
  type InProcessShard,
} from './in-process-ring.ts';
import { ringEnvironment } from './ring-environment.ts';
import { overlaps } from './shards.ts';

const NAMESPACE = 'gone';
/** Leases that outlast each outage of the test, so that no shard stops in it. */
const LEASE = { leaseDuration: 15_000, renewDeadline: 10_000 };

// Without the watch cache, watches are served by etcd itself: once etcd is compacted past the
// resourceVersion a cut-off informer last saw, its next watch is answered 410 Gone and it relists.
describe('a ring whose informers are answered 410 Gone after an outage', () => {
  let ring: InProcessRing;
  const proxies = new Map<string, SeverableProxy>();
  const shards = new Map<string, InProcessShard>();

  after(async () => {
    await Promise.all([...shards.values()].map((s) => s.stop().catch(() => undefined)));
    for (const proxy of proxies.values()) await proxy.close();
  });
  const api = ringEnvironment(NAMESPACE, ['--watch-cache=false']);
  before(async () => {
    await createWidgets(api.client, NAMESPACE, 'before', 20);
    ring = new InProcessRing(api.env, NAMESPACE);
  });

  /** Starts shard `name` reaching the API server through a proxy of its own. */
  async function startBehindProxy(name: string): Promise<void> {
    const proxy = await SeverableProxy.start(api.env.server);
    proxies.set(name, proxy);
    const kubeConfig = { ...restConfigOf(api.env.kubeConfig), server: proxy.url };
    shards.set(name, await ring.start(name, { ...LEASE, kubeConfig }));
  }

  async function leader(): Promise<string | undefined> {
    return leadingShard(api.client, NAMESPACE, `${RING}-sharder`, RING);
  }

  /** Each shard's cache holds exactly the Widgets labelled with it, and no shard stopped. */
  async function cachesHoldTheirShares(): Promise<void> {
    await cachesHoldShares(api.client, NAMESPACE, shards.values());
    for (const [name, shard] of shards) assert.equal(shard.stopped(), false, `${name} stopped`);
  }

  it("relists the sharder's and the shards' informers: Widgets created and deleted in the outage", async () => {
    await startBehindProxy('shard-a');
    await eventuallyTrue(async () => (await leader()) === 'shard-a', 'shard-a to lead');
    await startBehindProxy('shard-b');
    await convergedOn(api.client, NAMESPACE, ring, ['shard-a', 'shard-b']);

    for (const proxy of proxies.values()) proxy.sever();
    await createWidgets(api.client, NAMESPACE, 'outage', 10);
    for (const i of [0, 1, 2])
      await api.client.delete(objectRef(WidgetKind, { namespace: NAMESPACE, name: `before-${i}` }));
    await compactEtcd(api.env.etcdUrl);
    for (const proxy of proxies.values()) proxy.restore();

    // The sharder saw the new Widgets only through its relist: its resync is minutes away.
    await convergedOn(api.client, NAMESPACE, ring, ['shard-a', 'shard-b']);
    await cachesHoldTheirShares();
  });

  it("relists a cut-off shard's informer: Widgets assigned to it and drained from it in the outage", async () => {
    const live = ['shard-a', 'shard-b', 'shard-c'];
    const home = new HashRing(live);
    const homeOf = (name: string): string | undefined =>
      home.shardFor(ringKeyOf(WidgetKind, { metadata: { namespace: NAMESPACE, name } }));
    const before = await assignments(api.client, NAMESPACE);
    const leaving = [...before].filter(([name, s]) => s === 'shard-b' && homeOf(name) === 'shard-c');
    assert.ok(leaving.length > 0, 'the join moves Widgets of shard-b');

    proxies.get('shard-b')?.sever();
    shards.set('shard-c', await ring.start('shard-c', LEASE));
    await createWidgets(api.client, NAMESPACE, 'cut', 10);
    const arriving = Array.from({ length: 10 }, (_, i) => `cut-${i}`).filter((n) => homeOf(n) === 'shard-b');
    assert.ok(arriving.length > 0, 'a new Widget goes to shard-b');
    await eventuallyTrue(async () => {
      const widgets = await api.client.direct().listAll(WidgetKind, { namespace: NAMESPACE });
      const labels = new Map(widgets.map((w) => [w.metadata?.name ?? '', w.metadata?.labels ?? {}]));
      return (
        leaving.every(([name]) => labels.get(name)?.[drainLabel(RING)] !== undefined) &&
        arriving.every((name) => labels.get(name)?.[shardLabel(RING)] === 'shard-b')
      );
    }, "the sharder to drain shard-b's leaving Widgets and assign it new ones while it is cut off");
    await compactEtcd(api.env.etcdUrl);
    proxies.get('shard-b')?.restore();

    await convergedOn(api.client, NAMESPACE, ring, live);
    await cachesHoldTheirShares();
  });

  it('never had one Widget reconciled by two shards at once', () => {
    assert.deepEqual(overlaps(ring.intervals).slice(0, 10), []);
  });
});
