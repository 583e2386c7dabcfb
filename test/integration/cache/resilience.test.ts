import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { V1ConfigMap } from '@kubernetes/client-node';
import type { Json } from '../../../src/runtime/api/json.ts';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newCache, type Cache } from '../../../src/runtime/cache/cache.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { createLogger } from '../../../src/runtime/log/logger.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { objectRef } from '../../../src/runtime/client/object-key.ts';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { resourcePath } from '../../../src/runtime/client/resource-path.ts';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { transportFor, type RestRequest, type Transport } from '../../../src/runtime/client/transport.ts';
import { compactEtcd } from '../../support/etcd-compaction.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { ObservedTransport } from '../../support/observed-transport.ts';
import { RecordingHandler } from '../../support/recording-handler.ts';

// Without the watch cache, watches are served by etcd itself: a compaction makes an old
// resourceVersion Gone, and a restarted API server resumes watches from etcd's full history.
describe('informer cache through 410 Gone and API server crashes', () => {
  let env: Environment;
  let admin: Client;
  const stop = new AbortController();
  before(async () => {
    env = await startEnvironment({ apiServerArgs: ['--watch-cache=false'] });
    admin = newClient({ kubeConfig: env.kubeConfig });
  });
  after(async () => {
    stop.abort();
    await env.stop();
  });

  const namespace = async (): Promise<string> => {
    const name = `resilience-${randomUUID().slice(0, 8)}`;
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    return name;
  };
  const configMap = (ns: string, name: string, v = '1'): V1ConfigMap => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: ns },
    data: { v },
  });
  const watched = async (
    ns: string,
  ): Promise<{ cache: Cache; transport: ObservedTransport; handler: RecordingHandler }> => {
    const transport = new ObservedTransport(transportFor(env.kubeConfig));
    const cache = newCache({ transport, namespaces: [ns] });
    const handler = new RecordingHandler();
    cache.informerFor(ConfigMapKind).addEventHandler(handler);
    cache.start(stop.signal);
    assert.equal(await cache.waitForCacheSync(), true);
    return { cache, transport, handler };
  };
  /** `namespace/name@resourceVersion` of each object, sorted: equal lists mean equal content. */
  const versions = (items: Json<V1ConfigMap>[]): string[] =>
    items.map((c) => `${c.metadata?.name}@${c.metadata?.resourceVersion}`).sort();
  const sameAsServer = async (cache: Cache, ns: string): Promise<boolean> => {
    const [cached, served] = [
      await cache.listAll(ConfigMapKind, { namespace: ns }),
      await admin.listAll(ConfigMapKind, { namespace: ns }),
    ];
    return JSON.stringify(versions(cached)) === JSON.stringify(versions(served));
  };

  it('relists after 410 Gone, losing no object and delivering the deletions that happened meanwhile', async () => {
    const ns = await namespace();
    for (const name of ['keep', 'change', 'gone']) await admin.create(configMap(ns, name));
    const { cache, transport, handler } = await watched(ns);

    transport.disconnect();
    await admin.delete(objectRef(ConfigMapKind, { namespace: ns, name: 'gone' }));
    await admin.patch(
      objectRef(ConfigMapKind, { namespace: ns, name: 'change' }),
      mergePatch({ data: { v: '2' } }),
    );
    await admin.create(configMap(ns, 'born'));
    await compactEtcd(env.etcdUrl);
    const initialLists = transport.lists.get(resourcePath(ConfigMapKind, ns));
    transport.reconnect();

    await eventuallyTrue(
      () => handler.saw('delete', 'gone') && handler.saw('add', 'born') && handler.saw('update', 'change'),
      'the relist delivers what was missed',
    );
    assert.equal(initialLists, 1);
    assert.equal(transport.lists.get(resourcePath(ConfigMapKind, ns)), 2, 'one relist');
    const [first, relist] = transport.listQueries.get(resourcePath(ConfigMapKind, ns)) ?? [];
    assert.equal(first?.has('resourceVersion'), false, 'the first list is a consistent one');
    assert.match(
      relist?.get('resourceVersion') ?? '',
      /^[1-9][0-9]*$/,
      'the relist asks for what the informer had seen, no older',
    );
    assert.equal(relist?.has('limit'), false, 'in one response, as a limit would make it an exact read');
    const deleted = handler.of('gone').at(-1);
    assert.equal(deleted?.finalStateUnknown, true);
    assert.equal(
      (deleted?.obj as V1ConfigMap).data?.['v'],
      '1',
      'the deletion carries the last state the cache knew',
    );
    const update = handler.of('change').at(-1);
    assert.deepEqual(
      [(update?.old as V1ConfigMap).data?.['v'], (update?.obj as V1ConfigMap).data?.['v']],
      ['1', '2'],
    );
    assert.deepEqual(
      handler.of('keep').map((e) => e.type),
      ['add'],
      'an unchanged object gets no event',
    );
    assert.equal(await sameAsServer(cache, ns), true);
  });

  it('lists the latest state in pages, and relists from the resourceVersion seen after 410 Gone', async () => {
    const ns = await namespace();
    for (let i = 0; i < 5; i++) await admin.create(configMap(ns, `paged-${i}`));
    const transport = new ObservedTransport(transportFor(env.kubeConfig));
    const cache = newCache({ transport, namespaces: [ns], listPageSize: 2 });
    const handler = new RecordingHandler();
    cache.informerFor(ConfigMapKind).addEventHandler(handler);
    cache.start(stop.signal);
    assert.equal(await cache.waitForCacheSync(), true);
    const path = resourcePath(ConfigMapKind, ns);
    const shape = (q: URLSearchParams): string =>
      `${q.get('resourceVersion') ?? ''}|${q.get('limit') ?? ''}|${q.has('continue') ? 'continue' : ''}`;
    assert.deepEqual((transport.listQueries.get(path) ?? []).map(shape), [
      '|2|',
      '|2|continue',
      '|2|continue',
    ]);
    const listedAt = [...cache.informerFor(ConfigMapKind).store.values()]
      .map((c) => Number(c.metadata?.resourceVersion))
      .reduce((a, b) => Math.max(a, b));

    transport.disconnect();
    await admin.delete(objectRef(ConfigMapKind, { namespace: ns, name: 'paged-0' }));
    await admin.create(configMap(ns, 'born'));
    await compactEtcd(env.etcdUrl);
    transport.reconnect();

    await eventuallyTrue(
      () => handler.saw('delete', 'paged-0') && handler.saw('add', 'born'),
      'the relist delivers what was missed',
    );
    const relists = (transport.listQueries.get(path) ?? []).slice(3);
    const [atSeen, ...more] = relists;
    assert.ok(
      atSeen && Number(atSeen.get('resourceVersion')) >= listedAt,
      'the watch from a compacted resourceVersion is Gone: a relist at the resourceVersion seen',
    );
    assert.equal(atSeen.get('limit'), null, 'in one response: at least as new as what the cache holds');
    assert.deepEqual(more.map(shape), [], 'served: no other list');
    assert.equal(await sameAsServer(cache, ns), true);
  });

  it('lists in full when a continue token expires between pages, then watches from that list', async () => {
    const ns = await namespace();
    for (let i = 0; i < 5; i++) await admin.create(configMap(ns, `paged-${i}`));
    const transport = new ExpiringPagesTransport(
      transportFor(env.kubeConfig),
      resourcePath(ConfigMapKind, ns),
      async () => {
        await admin.create(configMap(ns, 'between-pages'));
        await compactEtcd(env.etcdUrl);
      },
    );
    const cache = newCache({ transport, namespaces: [ns], listPageSize: 2 });
    const handler = new RecordingHandler();
    cache.informerFor(ConfigMapKind).addEventHandler(handler);
    cache.start(stop.signal);
    assert.equal(await cache.waitForCacheSync(), true);
    assert.deepEqual(
      transport.lists,
      ['limit=2', 'limit=2&continue', ''],
      'page, expired page, full list of the latest state',
    );
    assert.equal(handler.events.filter((e) => e.type === 'add' && e.initial).length, 6);
    assert.equal(await sameAsServer(cache, ns), true);
    await admin.create(configMap(ns, 'after-list'));
    await eventuallyTrue(() => handler.saw('add', 'after-list'), 'the watch from the full list delivers');
    assert.deepEqual(
      handler.of('between-pages').map((e) => e.type),
      ['add'],
      'no event is replayed',
    );
  });

  it('listAll through the client lists in full when a continue token expires', async () => {
    const ns = await namespace();
    for (let i = 0; i < 5; i++) await admin.create(configMap(ns, `paged-${i}`));
    const transport = new ExpiringPagesTransport(
      transportFor(env.kubeConfig),
      resourcePath(ConfigMapKind, ns),
      async () => {
        await admin.create(configMap(ns, 'between-pages'));
        await compactEtcd(env.etcdUrl);
      },
    );
    const items = await newClient({ transport }).listAll(ConfigMapKind, { namespace: ns, limit: 2 });
    assert.deepEqual(transport.lists, ['limit=2', 'limit=2&continue', '']);
    assert.deepEqual(items.map((c) => c.metadata?.name).sort(), [
      'between-pages',
      'paged-0',
      'paged-1',
      'paged-2',
      'paged-3',
      'paged-4',
    ]);
  });

  it('times watches on the monotonic clock: an empty one the server ends at once backs off, whatever the wall clock did', async () => {
    const ns = await namespace();
    const clock = new FakeClock();
    const transport = new ObservedTransport(transportFor(env.kubeConfig));
    const path = resourcePath(ConfigMapKind, ns);
    // timeoutSeconds 1 and no jitter: the server ends each watch after a second of real time.
    const cache = newCache({
      transport,
      namespaces: [ns],
      minWatchTimeoutSeconds: 1,
      random: () => 0,
      clock,
    });
    cache.informerFor(ConfigMapKind);
    cache.start(stop.signal);
    assert.equal(await cache.waitForCacheSync(), true);
    clock.stepWall(60 * 60 * 1000);
    await eventuallyTrue(() => clock.sleepers === 1, 'the reflector sleeps its backoff on the clock');
    assert.equal(transport.watches.get(path), 1, 'no new watch before the backoff has passed');
    clock.advance(800);
    await eventuallyTrue(() => transport.watches.get(path) === 2, 'the watch is opened again after 800 ms');
  });

  it('keeps retrying a list it may not do, saying why, and syncs once RBAC allows it', async () => {
    const ns = await namespace();
    await admin.create(configMap(ns, 'secret-plans'));
    const user = await env.addUser('late-reader');
    const lines: string[] = [];
    const logger = createLogger({ write: (line) => lines.push(line) });
    const cache = newCache({
      kubeConfig: user.kubeConfig,
      namespaces: [ns],
      logger,
      backoff: { initialMs: 50, maxMs: 200 },
    });
    cache.informerFor(ConfigMapKind);
    cache.start(stop.signal);
    await eventuallyTrue(
      () => lines.filter((l) => l.includes('403')).length >= 3,
      'three refused lists, each logged',
    );
    assert.equal(cache.informerFor(ConfigMapKind).hasSynced(), false);

    const rules = [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list', 'watch'] }];
    await admin.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'read', namespace: ns },
      rules,
    });
    await admin.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'read', namespace: ns },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'read' },
      subjects: [{ kind: 'User', name: 'late-reader', apiGroup: 'rbac.authorization.k8s.io' }],
    });
    assert.equal(await cache.waitForCacheSync(), true);
    assert.ok(await cache.get(ConfigMapKind, { namespace: ns, name: 'secret-plans' }));
    assert.match(lines[0] ?? '', /"level":"error".*list\/watch failed, retrying/);
  });

  it('survives a killed and restarted API server with no lost event', async () => {
    const ns = await namespace();
    for (let i = 0; i < 5; i++) await admin.create(configMap(ns, `a${i}`));
    const { cache, handler } = await watched(ns);

    // Writes just before the kill: their events may still be on the wire when the server dies.
    for (let i = 0; i < 5; i++) await admin.create(configMap(ns, `b${i}`));
    await admin.delete(objectRef(ConfigMapKind, { namespace: ns, name: 'a0' }));
    await env.restartApiServer({ crash: true, downtimeMs: 2000 });
    for (let i = 0; i < 5; i++) await admin.create(configMap(ns, `c${i}`));
    await admin.delete(objectRef(ConfigMapKind, { namespace: ns, name: 'a1' }));
    await admin.patch(
      objectRef(ConfigMapKind, { namespace: ns, name: 'a2' }),
      mergePatch({ data: { v: '2' } }),
    );

    await eventuallyTrue(() => sameAsServer(cache, ns), 'the cache matches the API server again');
    for (const name of ['b0', 'b1', 'b2', 'b3', 'b4', 'c0', 'c1', 'c2', 'c3', 'c4'])
      assert.ok(handler.saw('add', name), `add of ${name}`);
    for (const name of ['a0', 'a1']) assert.ok(handler.saw('delete', name), `delete of ${name}`);
    assert.equal((handler.of('a2').at(-1)?.obj as V1ConfigMap).data?.['v'], '2');
  });
});

/**
 * Passes requests on to the API server; before the second page of a list of `path` it runs
 * `expire` (a write and an etcd compaction), so the first page's continue token is too old.
 */
class ExpiringPagesTransport implements Transport {
  readonly #inner: Transport;
  readonly #path: string;
  #expire: (() => Promise<void>) | undefined;
  /** The resourceVersion and paging parameters of each list of `path`, e.g. `resourceVersion=5`, `limit=2e.g. `resourceVersion=0&limit=2`, `limit=2&continue`continue`, or '' for none. */
  readonly lists: string[] = [];

  constructor(inner: Transport, path: string, expire: () => Promise<void>) {
    this.#inner = inner;
    this.#path = path;
    this.#expire = expire;
  }

  async request<T>(req: RestRequest): Promise<T> {
    if (req.method === 'GET') await this.#beforeList(req.path);
    return this.#inner.request<T>(req);
  }

  async stream(path: string, signal: AbortSignal): Promise<Readable> {
    await this.#beforeList(path);
    return this.#inner.stream(path, signal);
  }

  async #beforeList(fullPath: string): Promise<void> {
    const [path, query = ''] = fullPath.split('?');
    const params = new URLSearchParams(query);
    if (path !== this.#path || params.has('watch')) return;
    const rv = params.get('resourceVersion');
    const limit = params.get('limit');
    this.lists.push(
      [
        rv ? `resourceVersion=${rv}` : '',
        limit ? `limit=${limit}` : '',
        params.has('continue') ? 'continue' : '',
      ]
        .filter(Boolean)
        .join('&'),
    );
    const expire = this.#expire;
    if (params.has('continue') && expire) {
      this.#expire = undefined;
      await expire();
    }
  }
}
