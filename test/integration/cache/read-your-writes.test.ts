import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { after, before, describe, it } from 'node:test';
import type { KubeConfig, V1ConfigMap } from '@kubernetes/client-node';
import type { Json } from '../../../src/runtime/api/json.ts';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newCache, type Cache, type CacheOptions } from '../../../src/runtime/cache/cache.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { ConfigMapKind, NamespaceKind, PodKind } from '../../../src/runtime/client/kinds.ts';
import { objectRef } from '../../../src/runtime/client/object-key.ts';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { resourcePath } from '../../../src/runtime/client/resource-path.ts';
import { isAtOrAfter } from '../../../src/runtime/cache/resource-version.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { HeldAnswerTransport } from '../../support/held-answers.ts';
import { ObservedTransport } from '../../support/observed-transport.ts';

const HOLD = 'test.tsoperator.dev/hold';

/** A cache and a client reading through it, each on a transport that counts its requests. */
interface Reading {
  readonly cache: Cache;
  readonly client: Client;
  /** The cache's transport: informers' lists and watches, and the client's fallback reads. */
  readonly cacheTransport: ObservedTransport;
  /** GET requests (gets and lists, not watches) through either transport so far. */
  readonly gets: () => number;
}

describe('read-your-writes on a real API server', () => {
  let env: Environment;
  let admin: Client;
  const stop = new AbortController();
  before(async () => {
    env = await startEnvironment();
    admin = newClient({ kubeConfig: env.kubeConfig });
  });
  after(async () => {
    stop.abort();
    await env.stop();
  });

  const namespace = async (): Promise<string> => {
    const name = `ryw-${randomUUID().slice(0, 8)}`;
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    return name;
  };
  const configMap = (
    ns: string,
    name: string,
    data: Record<string, string> = {},
    labels: Record<string, string> = {},
  ): V1ConfigMap => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: ns, labels },
    data,
  });
  const names = (items: readonly Json<V1ConfigMap>[]): string[] =>
    items.map((c) => c.metadata?.name ?? '').sort();
  const reading = async (
    kubeConfig: KubeConfig,
    options: Omit<CacheOptions, 'transport'>,
    readYourWritesTimeoutMs: number,
  ): Promise<Reading> => {
    const cacheTransport = new ObservedTransport(transportFor(kubeConfig));
    const clientTransport = new ObservedTransport(transportFor(kubeConfig));
    const cache = newCache({ ...options, transport: cacheTransport });
    const client = newClient({ transport: clientTransport, cache, readYourWritesTimeoutMs });
    const count = (t: ObservedTransport): number => [...t.lists.values()].reduce((a, b) => a + b, 0);
    return { cache, client, cacheTransport, gets: () => count(cacheTransport) + count(clientTransport) };
  };

  it('reads an object being deleted back at once, with its deletionTimestamp, without asking the API server', async () => {
    const [ns, doomed] = [await namespace(), await namespace()];
    // Long enough that a read which waited for a "gone" that never comes would be seen falling back.
    const { cache, client, gets } = await reading(env.kubeConfig, { namespaces: [ns] }, 30_000);
    cache.informerFor(ConfigMapKind);
    cache.informerFor(PodKind);
    cache.informerFor(NamespaceKind);
    cache.start(stop.signal);
    assert.equal(await cache.waitForCacheSync(), true);
    // No controller-manager here makes the default service account, which pods need.
    await admin.create({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'default', namespace: ns },
    });
    const held = await client.create({
      ...configMap(ns, 'held'),
      metadata: { name: 'held', namespace: ns, finalizers: [HOLD] },
    });
    // On a node, so deleting it is graceful (an unscheduled pod is deleted at once), and no kubelet ends it.
    const pod = await client.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'graceful', namespace: ns },
      spec: {
        nodeName: 'node-1',
        automountServiceAccountToken: false,
        containers: [{ name: 'c', image: 'example.org/c:1' }],
      },
    });
    assert.ok(await client.get(ConfigMapKind, { namespace: ns, name: 'held' }));
    assert.ok(await client.get(PodKind, { namespace: ns, name: 'graceful' }));
    assert.ok(await client.get(NamespaceKind, { name: doomed }));
    const before = gets();

    await client.delete(held);
    const heldRead = await client.get(ConfigMapKind, { namespace: ns, name: 'held' });
    assert.ok(heldRead?.metadata?.deletionTimestamp, 'an object with a finalizer stays, marked');
    await client.delete(pod);
    const podRead = await client.get(PodKind, { namespace: ns, name: 'graceful' });
    assert.ok(podRead?.metadata?.deletionTimestamp, 'a pod in its grace period stays, marked');
    await client.delete(objectRef(NamespaceKind, { name: doomed }));
    const nsRead = await client.get(NamespaceKind, { name: doomed });
    assert.ok(nsRead?.metadata?.deletionTimestamp, 'a namespace with spec.finalizers stays, marked');
    assert.equal(nsRead.status?.phase, 'Terminating');
    const listed = await client.list(ConfigMapKind, { namespace: ns });
    assert.ok(listed.items.find((c) => c.metadata?.name === 'held')?.metadata?.deletionTimestamp);
    assert.equal(gets(), before, 'every read came from the cache: no fallback to the API server');

    await client.patch(heldRead, mergePatch({ metadata: { finalizers: null } }));
    assert.equal(
      await client.get(ConfigMapKind, { namespace: ns, name: 'held' }),
      undefined,
      'gone once released',
    );
  });

  it("leaves no listener on the caller's signal after writes and the reads that waited for them", async () => {
    const ns = await namespace();
    const { cache, client } = await reading(env.kubeConfig, { namespaces: [ns] }, 30_000);
    cache.informerFor(ConfigMapKind);
    cache.start(stop.signal);
    assert.equal(await cache.waitForCacheSync(), true);
    // What a reconcile's signal sees: many requests and reads over its life.
    const reconcile = new AbortController();
    const { signal } = reconcile;
    for (let i = 0; i < 20; i++) {
      const written = await client.create(configMap(ns, `cm-${i}`, { round: '0' }), { signal });
      await client.update({ ...written, data: { round: '1' } }, { signal });
      const read = await client.get(ConfigMapKind, { namespace: ns, name: `cm-${i}` }, { signal });
      assert.equal(read?.data?.['round'], '1', 'the read waited for the write');
    }
    assert.equal((await client.list(ConfigMapKind, { namespace: ns, signal })).items.length, 20);
    assert.equal(getEventListeners(signal, 'abort').length, 0);
  });

  it('lists the latest state first, also for a kind the client wrote before its informer existed', async () => {
    const ns = await namespace();
    await admin.create(configMap(ns, 'doomed'));
    const { cache, client, cacheTransport } = await reading(env.kubeConfig, { namespaces: [ns] }, 30_000);
    cache.open(stop.signal);
    // No informer yet, so no note to wait for: the informer the reads start must show both writes.
    await client.create(configMap(ns, 'fresh'));
    await client.delete(objectRef(ConfigMapKind, { namespace: ns, name: 'doomed' }));
    assert.deepEqual(names((await client.list(ConfigMapKind, { namespace: ns })).items), ['fresh']);
    assert.ok(await client.get(ConfigMapKind, { namespace: ns, name: 'fresh' }));
    const [first] = cacheTransport.listQueries.get(resourcePath(ConfigMapKind, ns)) ?? [];
    assert.equal(first?.has('resourceVersion'), false, 'a consistent list, not one at resourceVersion 0');

    assert.equal(await client.get(PodKind, { namespace: ns, name: 'none' }), undefined);
    const [podList] = cacheTransport.listQueries.get(resourcePath(PodKind, ns)) ?? [];
    assert.equal(podList?.has('resourceVersion'), false, 'a kind not written: a consistent list too');
  });

  it('never waits for a write the cache cannot show: another namespace, labels its selector excludes', async () => {
    const [watched, elsewhere] = [await namespace(), await namespace()];
    const { cache, client, cacheTransport, gets } = await reading(
      env.kubeConfig,
      { namespaces: [watched], labelSelector: 'team=blue' },
      30_000,
    );
    cache.informerFor(ConfigMapKind);
    cache.start(stop.signal);
    assert.equal(await cache.waitForCacheSync(), true);
    const leaving = await client.create(configMap(watched, 'leaving', {}, { team: 'blue' }));
    assert.ok(await client.get(ConfigMapKind, { namespace: watched, name: 'leaving' }));
    await client.patch(leaving, mergePatch({ metadata: { labels: { team: 'red' } } }));
    assert.deepEqual(
      names((await client.list(ConfigMapKind)).items),
      [],
      'a write out of the selector drops it',
    );

    // From here the cache sees nothing new: a read that waited for a write would fall back.
    cacheTransport.disconnect();
    const before = gets();
    await client.create(configMap(elsewhere, 'unwatched-namespace', {}, { team: 'blue' }));
    await client.create(configMap(watched, 'unselected', {}, { team: 'red' }));
    assert.deepEqual(names((await client.list(ConfigMapKind, { namespace: watched })).items), []);
    assert.deepEqual(names((await client.list(ConfigMapKind)).items), []);
    assert.equal(await client.get(ConfigMapKind, { namespace: watched, name: 'unselected' }), undefined);
    assert.equal(gets(), before, 'no read waited, none fell back to the API server');
    cacheTransport.reconnect();
  });

  it('never waits for a write its field selector excludes', async () => {
    const ns = await namespace();
    const { cache, client, cacheTransport, gets } = await reading(
      env.kubeConfig,
      { namespaces: [ns], byKind: [{ kind: ConfigMapKind, fieldSelector: 'metadata.name=watched' }] },
      30_000,
    );
    cache.informerFor(ConfigMapKind);
    cache.start(stop.signal);
    assert.equal(await cache.waitForCacheSync(), true);
    await client.create(configMap(ns, 'watched'));
    assert.deepEqual(names((await client.list(ConfigMapKind, { namespace: ns })).items), ['watched']);

    cacheTransport.disconnect();
    const before = gets();
    await client.create(configMap(ns, 'unwatched'));
    assert.deepEqual(names((await client.list(ConfigMapKind, { namespace: ns })).items), ['watched']);
    assert.equal(await client.get(ConfigMapKind, { namespace: ns, name: 'unwatched' }), undefined);
    assert.equal(gets(), before, 'no read waited, none fell back to the API server');
    cacheTransport.reconnect();
  });

  it('waits on the writes of the namespaces and labels a list reads; a late one is read within the cache scope', async () => {
    const [a, b] = [await namespace(), await namespace()];
    const user = await env.addUser(`role-only-${a}`);
    for (const ns of [a, b]) {
      await admin.create({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'configmaps', namespace: ns },
        rules: [
          { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch', 'create', 'patch'] },
        ],
      });
      await admin.create({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'configmaps', namespace: ns },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'configmaps' },
        subjects: [{ kind: 'User', name: `role-only-${a}`, apiGroup: 'rbac.authorization.k8s.io' }],
      });
    }
    const { cache, client, cacheTransport, gets } = await reading(
      user.kubeConfig,
      { namespaces: [a, b], labelSelector: 'team=blue' },
      300,
    );
    cache.indexField(ConfigMapKind, 'data.owner', (cm) => (cm.data?.['owner'] ? [cm.data['owner']] : []));
    cache.start(stop.signal);
    assert.equal(await cache.waitForCacheSync(), true);
    await client.create(configMap(a, 'a-blue', { owner: 'alice' }, { team: 'blue' }));
    assert.ok(await client.get(ConfigMapKind, { namespace: a, name: 'a-blue' }));

    cacheTransport.disconnect();
    await client.create(configMap(b, 'b-blue', { owner: 'alice' }, { team: 'blue', tier: 'back' }));
    const before = gets();
    assert.deepEqual(names((await client.list(ConfigMapKind, { namespace: a })).items), ['a-blue']);
    assert.deepEqual(names((await client.list(ConfigMapKind, { labelSelector: 'tier=front' })).items), []);
    assert.equal(gets(), before, 'neither list reads namespace b with tier=back: no wait');

    // The cache cannot show b-blue in time: these read the API server, as the cache would answer.
    assert.deepEqual(names((await client.list(ConfigMapKind, { namespace: b })).items), ['b-blue']);
    const owned = await client.list(ConfigMapKind, { fieldSelector: 'data.owner=alice' });
    assert.deepEqual(names(owned.items), ['a-blue', 'b-blue'], 'a field index answers on the fallback too');
    const got = await client.get(ConfigMapKind, { namespace: b, name: 'b-blue' });
    assert.equal(got?.data?.['owner'], 'alice');
    assert.equal(
      got.metadata?.managedFields,
      undefined,
      "the fallback answers through the cache's transform",
    );
    assert.ok(gets() > before, 'the late write was read from the API server');
    assert.equal(
      cacheTransport.lists.get(resourcePath(ConfigMapKind, undefined)),
      undefined,
      'never a cluster-wide list, which the Role does not allow',
    );

    cacheTransport.reconnect();
    await eventuallyTrue(
      async () => (await cache.get(ConfigMapKind, { namespace: b, name: 'b-blue' })) !== undefined,
      'the cache catches up',
    );
    const caughtUp = gets();
    assert.deepEqual(names((await client.list(ConfigMapKind, { namespace: b })).items), ['b-blue']);
    assert.equal(gets(), caughtUp, 'read from the cache again');
  });

  it('never reads back an object older than the newest of two writes answered out of order', async () => {
    const ns = await namespace();
    const key = { namespace: ns, name: 'raced' };
    const cacheTransport = new ObservedTransport(transportFor(env.kubeConfig));
    const cache = newCache({ namespaces: [ns], transport: cacheTransport });
    cache.start(stop.signal);
    const writes = new HeldAnswerTransport(transportFor(env.kubeConfig));
    const client = newClient({ transport: writes, cache, readYourWritesTimeoutMs: 500 });
    const created = await client.create(configMap(ns, 'raced', { step: '0' }));

    // The first write reaches the API server; its answer is held back.
    writes.hold((req) => req.method === 'PATCH');
    const first = client.patch(created, mergePatch({ data: { step: '1' } }));
    const [held] = await writes.heldCount(1);
    await held?.answered;
    // The cache shows the first write, then its watch is held, so it shows nothing newer.
    await eventuallyTrue(
      async () => (await cache.get(ConfigMapKind, key))?.data?.['step'] === '1',
      'the cache to show the first write',
    );
    cacheTransport.disconnect();
    try {
      const second = await client.patch(created, mergePatch({ data: { step: '2' } }));
      held?.release();
      const older = await first;
      assert.ok(
        isAtOrAfter(second.metadata?.resourceVersion, older.metadata?.resourceVersion ?? '') &&
          second.metadata?.resourceVersion !== older.metadata?.resourceVersion,
        'the write answered first is the newer one',
      );
      const read = await client.get(ConfigMapKind, key);
      assert.deepEqual(
        [read?.metadata?.resourceVersion, read?.data],
        [second.metadata?.resourceVersion, { step: '2' }],
      );
      const listed = await client.listAll(ConfigMapKind, { namespace: ns });
      assert.deepEqual(
        listed.map((c) => c.data),
        [{ step: '2' }],
      );
    } finally {
      cacheTransport.reconnect();
    }
  });
  it('a write out of the selector answered late blocks no read once the cache has read past it', async () => {
    const ns = await namespace();
    const key = { namespace: ns, name: 'wanders' };
    const cacheTransport = new ObservedTransport(transportFor(env.kubeConfig));
    const cache = newCache({ namespaces: [ns], labelSelector: 'app=x', transport: cacheTransport });
    cache.informerFor(ConfigMapKind);
    cache.start(stop.signal);
    assert.equal(await cache.waitForCacheSync(), true);
    const writes = new HeldAnswerTransport(transportFor(env.kubeConfig));
    // Longer than a read from the cache may take here, shorter than the test's patience.
    const timeoutMs = 2000;
    const client = newClient({ transport: writes, cache, readYourWritesTimeoutMs: timeoutMs });
    const created = await client.create(configMap(ns, 'wanders', { step: '0' }, { app: 'x' }));

    // Out of the selector; the answer is held: the client learns of this write only later.
    writes.hold((req) => req.method === 'PATCH');
    const leaving = client.patch(created, mergePatch({ metadata: { labels: { app: 'y' } } }));
    const [held] = await writes.heldCount(1);
    await held?.answered;
    await eventuallyTrue(
      async () => (await cache.get(ConfigMapKind, key)) === undefined,
      'the cache to drop it',
    );
    const back = await client.patch(created, mergePatch({ metadata: { labels: { app: 'x' } } }));
    await eventuallyTrue(
      async () =>
        (await cache.get(ConfigMapKind, key))?.metadata?.resourceVersion === back.metadata?.resourceVersion,
      'the cache to show it again',
    );
    held?.release();
    await leaving;
    const last = await client.patch(created, mergePatch({ data: { step: '3' } }));
    await eventuallyTrue(
      async () =>
        (await cache.get(ConfigMapKind, key))?.metadata?.resourceVersion === last.metadata?.resourceVersion,
      'the cache to show the last write',
    );

    const before = cacheTransport.lists.get(resourcePath(ConfigMapKind, ns)) ?? 0;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const read = await client.get(ConfigMapKind, key);
      const took = performance.now() - started;
      assert.equal(read?.data?.['step'], '3');
      assert.ok(
        took < timeoutMs / 2,
        `read ${i} waited ${took.toFixed(0)} ms for a write the cache had read past`,
      );
    }
    const listed = await client.list(ConfigMapKind, { namespace: ns });
    assert.deepEqual(names(listed.items), ['wanders']);
    assert.equal(
      cacheTransport.lists.get(resourcePath(ConfigMapKind, ns)) ?? 0,
      before,
      'every read from the cache, none from the API server',
    );
  });
});
