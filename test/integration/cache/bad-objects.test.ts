import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { V1ConfigMap } from '@kubernetes/client-node';
import type { KubeObject } from '../../../src/runtime/api/kube-object.ts';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newCache, type Cache } from '../../../src/runtime/cache/cache.ts';
import { stripManagedFields } from '../../../src/runtime/cache/transform.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { objectRef } from '../../../src/runtime/client/object-key.ts';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { resourcePath } from '../../../src/runtime/client/resource-path.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { createLogger } from '../../../src/runtime/log/logger.ts';
import { metricsRegistry } from '../../../src/runtime/metrics/registry.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { ObservedTransport } from '../../support/observed-transport.ts';
import { RecordingHandler } from '../../support/recording-handler.ts';

/** The runtime's count of ConfigMaps left out of a cache for `reason`. */
async function skipped(reason: 'index' | 'transform'): Promise<number> {
  const metric = metricsRegistry.getSingleMetric('informer_skipped_objects_total');
  const values = metric ? (await metric.get()).values : [];
  return values.find((v) => v.labels['kind'] === 'ConfigMap' && v.labels['reason'] === reason)?.value ?? 0;
}

/** The error lines logged about object `name`. */
const errorsAbout = (lines: readonly string[], name: string): Record<string, unknown>[] =>
  lines
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l['level'] === 'error' && l['name'] === name);

describe('an informer whose index or transform throws on one object', () => {
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
    const name = `bad-${randomUUID().slice(0, 8)}`;
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    return name;
  };
  const configMap = (ns: string, name: string, data: Record<string, string>): V1ConfigMap => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: ns },
    data,
  });
  /** A cache of `ns` whose owner index throws on `boom: index` and whose transform on `boom: transform`. */
  const startedCache = async (
    ns: string,
  ): Promise<{ cache: Cache; transport: ObservedTransport; handler: RecordingHandler; lines: string[] }> => {
    const lines: string[] = [];
    const transport = new ObservedTransport(transportFor(env.kubeConfig));
    const cache = newCache({
      transport,
      namespaces: [ns],
      logger: createLogger({ write: (line) => lines.push(line) }),
      transform: (obj: KubeObject) => {
        if ((obj as V1ConfigMap).data?.['boom'] === 'transform') throw new Error('cannot transform this one');
        return stripManagedFields(obj);
      },
    });
    cache.indexField(ConfigMapKind, 'data.owner', (cm) => {
      if (cm.data?.['boom'] === 'index') throw new Error('owner unreadable');
      return cm.data?.['owner'] ? [cm.data['owner']] : [];
    });
    const handler = new RecordingHandler();
    cache.informerFor(ConfigMapKind).addEventHandler(handler);
    cache.start(stop.signal);
    return { cache, transport, handler, lines };
  };
  const names = async (cache: Cache, ns: string, fieldSelector?: string): Promise<string[]> =>
    (await cache.list(ConfigMapKind, { namespace: ns, ...(fieldSelector ? { fieldSelector } : {}) })).items
      .map((c) => c.metadata?.name ?? '')
      .sort();

  it('syncs at list time without the bad objects, naming each in the log and counting it', async () => {
    const ns = await namespace();
    await admin.create(configMap(ns, 'good-1', { owner: 'alice' }));
    await admin.create(configMap(ns, 'bad-index', { owner: 'alice', boom: 'index' }));
    await admin.create(configMap(ns, 'bad-transform', { boom: 'transform' }));
    await admin.create(configMap(ns, 'good-2', {}));
    const [indexBefore, transformBefore] = [await skipped('index'), await skipped('transform')];

    const { cache, transport, lines } = await startedCache(ns);
    assert.equal(await cache.waitForCacheSync(), true);
    assert.deepEqual(await names(cache, ns), ['good-1', 'good-2']);
    assert.deepEqual(await names(cache, ns, 'data.owner=alice'), ['good-1']);
    assert.equal(transport.lists.get(resourcePath(ConfigMapKind, ns)), 1, 'one list, not retried');

    const [index] = errorsAbout(lines, 'bad-index');
    assert.equal(index?.['kind'], 'ConfigMap');
    assert.equal(index?.['namespace'], ns);
    assert.match(String(index?.['msg']), /left out of the cache: an index function threw/);
    assert.match(
      JSON.stringify(index?.['err']),
      /index \\"data.owner\\" failed on .*\/bad-index: owner unreadable/,
    );
    const [transform] = errorsAbout(lines, 'bad-transform');
    assert.match(JSON.stringify(transform?.['err']), /cannot transform this one/);
    assert.equal(await skipped('index'), indexBefore + 1);
    assert.equal(await skipped('transform'), transformBefore + 1);
  });

  it('goes on watching: later events arrive, a bad version leaves the good one stored, nothing is redelivered', async () => {
    const ns = await namespace();
    const key = { namespace: ns, name: 'turns-bad' };
    await admin.create(configMap(ns, 'turns-bad', { owner: 'alice', v: '1' }));
    const { cache, transport, handler, lines } = await startedCache(ns);
    assert.equal(await cache.waitForCacheSync(), true);
    const indexBefore = await skipped('index');

    await admin.patch(objectRef(ConfigMapKind, key), mergePatch({ data: { boom: 'index', v: '2' } }));
    await admin.create(configMap(ns, 'born-bad', { boom: 'transform' }));
    await admin.create(configMap(ns, 'later', { owner: 'bob' }));
    await eventuallyTrue(() => handler.saw('add', 'later'), 'an event after the bad ones arrives');
    assert.equal((await cache.get(ConfigMapKind, key))?.data?.['v'], '1', 'the good version stays');
    assert.deepEqual(await names(cache, ns, 'data.owner=alice'), ['turns-bad']);
    assert.deepEqual(await names(cache, ns, 'data.owner=bob'), ['later']);
    assert.deepEqual(
      handler.of('turns-bad').map((e) => e.type),
      ['add'],
      'no update for the bad version',
    );
    assert.equal(handler.saw('add', 'born-bad'), false);
    assert.equal(await skipped('index'), indexBefore + 1, 'the bad event came once');
    assert.equal(errorsAbout(lines, 'turns-bad').length, 1);
    const path = resourcePath(ConfigMapKind, ns);
    assert.deepEqual([transport.lists.get(path), transport.watches.get(path)], [1, 1], 'one list, one watch');

    await admin.patch(objectRef(ConfigMapKind, key), mergePatch({ data: { boom: null, v: '3' } }));
    await eventuallyTrue(() => handler.saw('update', 'turns-bad'), 'the next good version arrives');
    const update = handler.of('turns-bad').at(-1);
    assert.deepEqual(
      [(update?.old as V1ConfigMap).data?.['v'], (update?.obj as V1ConfigMap).data?.['v']],
      ['1', '3'],
    );

    await admin.delete(objectRef(ConfigMapKind, { namespace: ns, name: 'born-bad' }));
    await admin.delete(objectRef(ConfigMapKind, key));
    await eventuallyTrue(() => handler.saw('delete', 'turns-bad'), 'the delete of a stored object arrives');
    assert.equal(handler.saw('delete', 'born-bad'), false, 'an object never announced is not deleted');
  });
});
