import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { V1ConfigMap } from '@kubernetes/client-node';
import type { KubeObject } from '../../../src/runtime/api/kube-object.ts';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newCache, type Cache } from '../../../src/runtime/cache/cache.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { defineKind } from '../../../src/runtime/client/kind.ts';
import { ConfigMapKind, NamespaceKind, PodKind, SecretKind } from '../../../src/runtime/client/kinds.ts';
import { objectRef } from '../../../src/runtime/client/object-key.ts';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { resourcePath } from '../../../src/runtime/client/resource-path.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { ObservedTransport } from '../../support/observed-transport.ts';
import { RecordingHandler } from '../../support/recording-handler.ts';

const GadgetKind = defineKind({
  apiVersion: 'test.tsoperator.dev/v1',
  kind: 'Gadget',
  plural: 'gadgets',
  namespaced: true,
});
const CRDS = [new URL('./testdata/gadgets.yaml', import.meta.url).pathname];

describe('informer cache against a real API server', () => {
  let env: Environment;
  let admin: Client;
  const stop = new AbortController();
  after(async () => {
    stop.abort();
    await env.stop();
  });
  before(async () => {
    env = await startEnvironment({ crdPaths: CRDS });
    admin = newClient({ kubeConfig: env.kubeConfig });
  });

  const namespace = async (): Promise<string> => {
    const name = `cache-${randomUUID().slice(0, 8)}`;
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
  const startedCache = async (
    options: Omit<Parameters<typeof newCache>[0], 'transport'> = {},
  ): Promise<{ cache: Cache; transport: ObservedTransport }> => {
    const transport = new ObservedTransport(transportFor(env.kubeConfig));
    const cache = newCache({ ...options, transport });
    cache.start(stop.signal);
    return { cache, transport };
  };

  it('lists then watches: add, update and delete reach handlers with old and new objects', async () => {
    const ns = await namespace();
    await admin.create(configMap(ns, 'before', { v: '0' }));
    const { cache } = await startedCache({ namespaces: [ns] });
    const handler = new RecordingHandler();
    cache.informerFor(ConfigMapKind).addEventHandler(handler);
    assert.equal(await cache.waitForCacheSync(), true);
    assert.deepEqual(
      handler.of('before').map((e) => [e.type, e.initial]),
      [['add', true]],
    );

    const created = await admin.create(configMap(ns, 'live', { v: '1' }));
    await admin.patch(created, mergePatch({ data: { v: '2' } }));
    await admin.delete(created);
    await eventuallyTrue(() => handler.saw('delete', 'live'), 'the delete of live arrives');
    const events = handler.of('live');
    assert.deepEqual(
      events.map((e) => e.type),
      ['add', 'update', 'delete'],
    );
    assert.equal(events[0]?.initial, false);
    assert.deepEqual((events[1]?.old as V1ConfigMap).data, { v: '1' });
    assert.deepEqual((events[1]?.obj as V1ConfigMap).data, { v: '2' });
    assert.deepEqual((events[2]?.obj as V1ConfigMap).data, { v: '2' }, 'a delete carries the last state');
    assert.equal(events[2]?.finalStateUnknown, false);
    assert.equal(events[0]?.obj.metadata?.managedFields, undefined, 'managedFields are stripped by default');
  });

  it('lists the latest state, in pages of listPageSize or else in one response, then watches from that list', async () => {
    const ns = await namespace();
    const listed = Array.from({ length: 7 }, (_, i) => `listed-${i}`);
    for (const name of listed) await admin.create(configMap(ns, name));
    const { cache, transport } = await startedCache({ namespaces: [ns], listPageSize: 2 });
    const handler = new RecordingHandler();
    cache.informerFor(ConfigMapKind).addEventHandler(handler);
    await cache.waitForCacheSync();
    assert.equal(handler.events.filter((e) => e.type === 'add' && e.initial).length, 7);
    const path = resourcePath(ConfigMapKind, ns);
    const lists = transport.listQueries.get(path) ?? [];
    assert.deepEqual(
      lists.map((q) => [q.get('resourceVersion'), q.get('limit'), q.has('continue')]),
      [
        [null, '2', false],
        [null, '2', true],
        [null, '2', true],
        [null, '2', true],
      ],
      'a consistent list, in pages of 2',
    );
    await admin.create(configMap(ns, 'after-list'));
    await eventuallyTrue(() => handler.saw('add', 'after-list'), 'the watch from the list delivers');
    assert.equal(handler.events.filter((e) => e.initial).length, 7, 'nothing listed is delivered again');
    assert.equal(transport.lists.get(path), 4, 'no list but the pages of the first');

    const unpaged = await startedCache({ namespaces: [ns] });
    assert.equal(await unpaged.cache.informerFor(ConfigMapKind).waitForSync(), true);
    assert.deepEqual(
      (unpaged.transport.listQueries.get(path) ?? []).map((q) => [...q.keys()]),
      [[]],
      'by default a consistent list in one response',
    );
    assert.equal(unpaged.cache.informerFor(ConfigMapKind).store.size, 8);
  });

  it('caches a list larger than a parse batch as the API server holds it, custom resources whose items nest their first key among them', async () => {
    const ns = await namespace();
    const owner = await admin.create(configMap(ns, 'owner'));
    const ownerRef = (name: string): Record<string, unknown> => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name,
      uid: owner.metadata?.uid ?? '',
    });
    const gadget = (i: number): KubeObject =>
      ({
        apiVersion: 'test.tsoperator.dev/v1',
        kind: 'Gadget',
        // Two owner references write `},{"apiVersion":` inside an item: the text between two gadgets.
        metadata: {
          name: `g-${i}`,
          namespace: ns,
          ...(i % 50 === 7 ? { ownerReferences: [ownerRef('owner'), ownerRef('owner-too')] } : {}),
        },
        spec: { size: i, tags: Array.from({ length: 8 }, (_, t) => `tag-${t}-${'x'.repeat(20)}`) },
      }) as KubeObject;
    const names = Array.from({ length: 400 }, (_, i) => i);
    for (let i = 0; i < names.length; i += 20)
      await Promise.all(names.slice(i, i + 20).map((n) => admin.create(gadget(n))));
    const served = await admin.listAll(GadgetKind, { namespace: ns });
    const { cache } = await startedCache({ namespaces: [ns] });
    const cached = await cache.listAll(GadgetKind, { namespace: ns });
    const byName = (items: KubeObject[]): KubeObject[] =>
      [...items].sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
    const withoutManagedFields = served.map((g) => ({
      ...g,
      metadata: { ...g.metadata, managedFields: undefined },
    }));
    assert.equal(cached.length, 400);
    assert.deepEqual(
      JSON.parse(JSON.stringify(byName(cached))),
      JSON.parse(JSON.stringify(byName(withoutManagedFields))),
    );
  });

  it('hands out frozen objects to handlers and mutable copies to readers', async () => {
    const ns = await namespace();
    await admin.create(configMap(ns, 'shared', { v: '1' }));
    const { cache } = await startedCache({ namespaces: [ns] });
    const handler = new RecordingHandler();
    cache.informerFor(ConfigMapKind).addEventHandler(handler);
    await cache.waitForCacheSync();
    const seen = handler.of('shared')[0]?.obj as V1ConfigMap;
    assert.throws(() => {
      (seen.data as Record<string, string>)['v'] = 'corrupted';
    }, TypeError);
    const copy = await cache.get(ConfigMapKind, { namespace: ns, name: 'shared' });
    assert.ok(copy?.data);
    copy.data['v'] = 'mine';
    assert.deepEqual((await cache.get(ConfigMapKind, { namespace: ns, name: 'shared' }))?.data, { v: '1' });
  });

  it('replays the cache to a late handler, resyncs periodically, and caches cluster-scoped kinds', async () => {
    const ns = await namespace();
    await admin.create(configMap(ns, 'early'));
    const { cache } = await startedCache({ namespaces: [ns], resyncPeriodMs: 100 });
    const informer = cache.informerFor(ConfigMapKind);
    await cache.waitForCacheSync();
    const late = new RecordingHandler();
    const registration = informer.addEventHandler(late);
    assert.equal(registration.hasSynced(), true);
    assert.deepEqual(
      late.of('early').map((e) => [e.type, e.initial]),
      [['add', true]],
    );
    await eventuallyTrue(() => late.saw('update', 'early'), 'a resync update arrives');
    const resync = late.of('early').find((e) => e.type === 'update');
    assert.equal(resync?.old, resync?.obj, 'a resync hands the same object as old and new');
    const witness = new RecordingHandler();
    informer.addEventHandler(witness);
    registration.remove();
    await admin.create(configMap(ns, 'after-removal'));
    await eventuallyTrue(
      () => witness.saw('add', 'after-removal'),
      'a handler still registered sees the add',
    );
    assert.equal(late.saw('add', 'after-removal'), false, 'a removed handler does not');
    const namespaces = await cache.list(NamespaceKind);
    assert.ok(namespaces.items.some((n) => n.metadata?.name === ns));
    assert.equal((await cache.get(NamespaceKind, { name: ns }))?.metadata?.name, ns);
  });

  it('serves three controllers worth of handlers on one kind from one watch connection', async () => {
    const ns = await namespace();
    const { cache, transport } = await startedCache();
    const handlers = [new RecordingHandler(), new RecordingHandler(), new RecordingHandler()];
    for (const h of handlers) cache.informerFor(GadgetKind).addEventHandler(h);
    await cache.waitForCacheSync();
    await admin.create({
      apiVersion: 'test.tsoperator.dev/v1',
      kind: 'Gadget',
      metadata: { name: 'g', namespace: ns },
    });
    await eventuallyTrue(() => handlers.every((h) => h.saw('add', 'g')), 'every handler sees the gadget');
    assert.equal(transport.watches.get(resourcePath(GadgetKind, undefined)), 1);
    assert.equal(transport.lists.get(resourcePath(GadgetKind, undefined)), 1);
    assert.equal(await apiServerWatchers(env, 'gadgets'), 1, 'the API server counts one watch of gadgets');
  });

  it('answers list queries from a field index', async () => {
    const ns = await namespace();
    const { cache } = await startedCache({ namespaces: [ns] });
    cache.indexField(ConfigMapKind, 'data.owner', (cm) => (cm.data?.['owner'] ? [cm.data['owner']] : []));
    cache.indexField(PodKind, 'spec.nodeName', (pod) => (pod.spec?.nodeName ? [pod.spec.nodeName] : []));
    // Written through the cached client: read-your-writes makes each visible to the lists below.
    const client = newClient({ kubeConfig: env.kubeConfig, cache });
    for (const [name, owner] of [
      ['a1', 'alice'],
      ['b1', 'bob'],
      ['a2', 'alice'],
      ['n1', ''],
    ] as const) {
      await client.create(configMap(ns, name, owner ? { owner } : {}));
    }
    const names = async (selector: string): Promise<string[]> =>
      (await client.list(ConfigMapKind, { namespace: ns, fieldSelector: selector })).items
        .map((c) => c.metadata?.name ?? '')
        .sort();
    assert.deepEqual(await names('data.owner=alice'), ['a1', 'a2']);
    assert.deepEqual(await names('data.owner=bob,metadata.name=b1'), ['b1']);
    assert.deepEqual(await names('data.owner=carol'), []);
    await client.patch(
      objectRef(ConfigMapKind, { namespace: ns, name: 'b1' }),
      mergePatch({ data: { owner: 'alice' } }),
    );
    assert.deepEqual(await names('data.owner=alice'), ['a1', 'a2', 'b1'], 'the index follows the change');
    await assert.rejects(
      client.list(ConfigMapKind, { namespace: ns, fieldSelector: 'data.colour=red' }),
      /No index for field "data.colour"/,
    );

    // No controller-manager here makes the default service account, which pods need.
    await client.create({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'default', namespace: ns },
    });
    for (const [name, nodeName] of [
      ['p1', 'node-1'],
      ['p2', 'node-2'],
      ['p3', 'node-1'],
    ] as const) {
      await client.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: ns },
        spec: {
          nodeName,
          automountServiceAccountToken: false,
          containers: [{ name: 'c', image: 'example.org/c:1' }],
        },
      });
    }
    const onNode1 = await client.list(PodKind, { namespace: ns, fieldSelector: 'spec.nodeName=node-1' });
    assert.deepEqual(onNode1.items.map((p) => p.metadata?.name).sort(), ['p1', 'p3']);
  });

  it('caches only the namespaces and labels it is restricted to', async () => {
    const [a, b, c] = [await namespace(), await namespace(), await namespace()];
    const { cache, transport } = await startedCache({ namespaces: [a, b], labelSelector: 'team=blue' });
    const handler = new RecordingHandler();
    cache.informerFor(ConfigMapKind).addEventHandler(handler);
    await cache.waitForCacheSync();
    for (const ns of [a, b, c]) {
      await admin.create(configMap(ns, 'blue', {}, { team: 'blue' }));
      await admin.create(configMap(ns, 'red', {}, { team: 'red' }));
    }
    await eventuallyTrue(() => handler.events.filter((e) => e.type === 'add').length === 2, 'two blue adds');
    await assert.rejects(
      cache.get(ConfigMapKind, { namespace: c, name: 'blue' }),
      /does not hold ConfigMap objects of namespace/,
    );
    const cached = (await cache.list(ConfigMapKind)).items
      .map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`)
      .sort();
    assert.deepEqual(cached, [`${a}/blue`, `${b}/blue`].sort());
    assert.equal(transport.watches.get(resourcePath(ConfigMapKind, a)), 1);
    assert.equal(transport.watches.get(resourcePath(ConfigMapKind, c)), undefined);
    await admin.patch(
      objectRef(ConfigMapKind, { namespace: a, name: 'blue' }),
      mergePatch({ metadata: { labels: { team: 'red' } } }),
    );
    await eventuallyTrue(
      () => handler.saw('delete', 'blue'),
      'an object leaving the selector is deleted from the cache',
    );
    assert.equal(await cache.get(ConfigMapKind, { namespace: a, name: 'blue' }), undefined);
  });

  it('resumes a watch the server ends without relisting, and loses nothing meanwhile', async () => {
    const ns = await namespace();
    const { cache, transport } = await startedCache({ namespaces: [ns], minWatchTimeoutSeconds: 1 });
    const handler = new RecordingHandler();
    cache.informerFor(ConfigMapKind).addEventHandler(handler);
    await cache.waitForCacheSync();
    const path = resourcePath(ConfigMapKind, ns);
    for (let i = 0; i < 4; i++) {
      const watches = transport.watches.get(path) ?? 0;
      await eventuallyTrue(
        () => (transport.watches.get(path) ?? 0) > watches,
        'the server ends the watch and it is resumed',
      );
      await admin.create(configMap(ns, `after-${i}`));
    }
    await eventuallyTrue(() => handler.saw('add', 'after-3'), 'the last add arrives');
    assert.deepEqual(
      handler.events.map((e) => e.name),
      ['after-0', 'after-1', 'after-2', 'after-3'],
    );
    assert.equal(transport.lists.get(path), 1, 'one list for all those watches');
  });

  it('reads its own writes through the cache, every time', async () => {
    const ns = await namespace();
    const { cache, transport } = await startedCache({ namespaces: [ns] });
    const client = newClient({ kubeConfig: env.kubeConfig, cache });
    const key = { namespace: ns, name: 'ryw' };
    assert.equal(await client.get(ConfigMapKind, key), undefined);
    let current: KubeObject = await client.create(configMap(ns, 'ryw', { n: '0' }));
    for (let i = 1; i <= 200; i++) {
      const read = await client.get(ConfigMapKind, key);
      assert.equal(
        read?.metadata?.resourceVersion,
        current.metadata?.resourceVersion,
        `read ${i} sees write ${i - 1}`,
      );
      current = await client.update({ ...read, data: { n: String(i) } });
    }
    const listed = await client.list(ConfigMapKind, { namespace: ns });
    assert.deepEqual(
      listed.items.map((c) => c.data?.['n']),
      ['200'],
    );
    const direct = await client.direct().get(ConfigMapKind, key);
    assert.equal(direct?.metadata?.resourceVersion, current.metadata?.resourceVersion);
    const uncached = newClient({ kubeConfig: env.kubeConfig, cache, uncachedKinds: [SecretKind] });
    await uncached.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: ns } });
    assert.ok(await uncached.get(SecretKind, { namespace: ns, name: 's' }));
    assert.equal(transport.lists.get(resourcePath(SecretKind, ns)), undefined, 'no informer lists secrets');
    assert.equal(transport.watches.get(resourcePath(SecretKind, ns)), undefined, 'nor watches them');
    for (let i = 0; i < 50; i++) {
      await client.create(configMap(ns, `item-${i}`));
      assert.ok(
        await client.get(ConfigMapKind, { namespace: ns, name: `item-${i}` }),
        `created item-${i} is read back`,
      );
      await client.delete(objectRef(ConfigMapKind, { namespace: ns, name: `item-${i}` }));
      assert.equal(
        await client.get(ConfigMapKind, { namespace: ns, name: `item-${i}` }),
        undefined,
        `deleted item-${i} is gone`,
      );
    }
  });
});

/** The API server's own count of open watches of a resource, from its /metrics. */
async function apiServerWatchers(env: Environment, resource: string): Promise<number> {
  const { stdout } = await promisify(execFile)(
    join(env.binDir, 'kubectl'),
    ['--kubeconfig', env.kubeconfigPath, 'get', '--raw', '/metrics'],
    { maxBuffer: 64 << 20 },
  );
  const line = stdout
    .split('\n')
    .find(
      (l) =>
        l.startsWith('apiserver_longrunning_requests{') &&
        l.includes(`resource="${resource}"`) &&
        l.includes('verb="WATCH"'),
    );
  return Number(line?.split(' ').pop() ?? 0);
}
