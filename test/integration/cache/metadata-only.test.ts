import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../../src/runtime/api/kube-object.ts';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newCache } from '../../../src/runtime/cache/cache.ts';
import { ApiReader } from '../../../src/runtime/client/api-reader.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { PARTIAL_OBJECT_METADATA_LIST } from '../../../src/runtime/client/partial-object-metadata.ts';
import { resourcePath } from '../../../src/runtime/client/resource-path.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { ObservedTransport } from '../../support/observed-transport.ts';
import { WidgetKind, widgetsCrd } from '../controller/support.ts';

const NAMESPACE = 'metadata';

/** Only apiVersion, kind and metadata, without managedFields: nothing of spec or status. */
function assertMetadataOnly(obj: KubeObject | undefined, name: string): void {
  assert.ok(obj, `${name} is there`);
  assert.deepEqual(Object.keys(obj).sort(), ['apiVersion', 'kind', 'metadata']);
  assert.equal(obj.apiVersion, WidgetKind.apiVersion);
  assert.equal(obj.kind, WidgetKind.kind);
  assert.equal(obj.metadata?.name, name);
  assert.equal(obj.metadata?.managedFields, undefined);
}

describe('metadata-only reads (PartialObjectMetadata) of a custom resource', () => {
  let env: Environment;
  let client: Client;
  let transport: ObservedTransport;

  before(async () => {
    env = await startEnvironment({ crdPaths: [widgetsCrd] });
    client = newClient({ kubeConfig: env.kubeConfig });
    transport = new ObservedTransport(transportFor(env.kubeConfig));
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
    for (const name of ['w-1', 'w-2'])
      await client.create({
        apiVersion: WidgetKind.apiVersion,
        kind: WidgetKind.kind,
        metadata: { name, namespace: NAMESPACE, labels: { team: 'a' } },
        spec: { size: 3, mode: 'x'.repeat(1024) },
      });
  });
  after(async () => {
    await env.stop();
  });

  it('is answered by the API server in PartialObjectMetadata: spec and status never leave it', async () => {
    const list = await transport.request<{ kind?: string; items?: KubeObject[] }>({
      method: 'GET',
      path: resourcePath(WidgetKind, NAMESPACE),
      accept: PARTIAL_OBJECT_METADATA_LIST,
    });
    assert.equal(list.kind, 'PartialObjectMetadataList');
    assert.equal(list.items?.length, 2);
    assert.ok(list.items?.every((w) => !('spec' in w)));
  });

  it('gets and lists each object as its metadata, labels included', async () => {
    const reader = new ApiReader(transport, true);
    const one = await reader.get(WidgetKind, { namespace: NAMESPACE, name: 'w-1' });
    assertMetadataOnly(one, 'w-1');
    assert.equal(one?.metadata?.labels?.['team'], 'a');
    const all = await reader.listAll(WidgetKind, { namespace: NAMESPACE, limit: 1 });
    assert.deepEqual(all.map((w) => w.metadata?.name).sort(), ['w-1', 'w-2']);
    for (const w of all) assertMetadataOnly(w, w.metadata?.name ?? '');
    assert.equal(await reader.get(WidgetKind, { namespace: NAMESPACE, name: 'none' }), undefined);
  });

  it('caches metadata only, through the first list and the watch, and a write from it applies', async () => {
    const stop = new AbortController();
    const cache = newCache({ transport, byKind: [{ kind: WidgetKind, metadataOnly: true }] });
    const informer = cache.informerFor(WidgetKind);
    cache.start(stop.signal);
    try {
      assert.ok(await cache.waitForCacheSync(stop.signal));
      for (const name of ['w-1', 'w-2']) assertMetadataOnly(informer.store.get(`${NAMESPACE}/${name}`), name);
      await client.create({
        apiVersion: WidgetKind.apiVersion,
        kind: WidgetKind.kind,
        metadata: { name: 'w-3', namespace: NAMESPACE },
        spec: { size: 1 },
      });
      await eventuallyTrue(() => informer.store.has(`${NAMESPACE}/w-3`), 'the watch to bring w-3');
      assertMetadataOnly(informer.store.get(`${NAMESPACE}/w-3`), 'w-3');
      const cached = informer.store.get(`${NAMESPACE}/w-1`);
      assert.ok(cached);
      // The cached object names its kind: a client writes it as it would a whole object.
      await client.patch(cached, mergePatch({ metadata: { labels: { team: 'b' } } }));
      await eventuallyTrue(
        () => informer.store.get(`${NAMESPACE}/w-1`)?.metadata?.labels?.['team'] === 'b',
        'the watch to bring the new label',
      );
      assertMetadataOnly(informer.store.get(`${NAMESPACE}/w-1`), 'w-1');
      const full = await client.direct().get(WidgetKind, { namespace: NAMESPACE, name: 'w-1' });
      assert.equal(full?.spec?.size, 3, 'the patch of labels left the spec as it was');
    } finally {
      stop.abort();
    }
  });

  it('refuses to create or replace an object read metadata-only, which would drop its spec', async () => {
    const stop = new AbortController();
    const cache = newCache({ transport, byKind: [{ kind: WidgetKind, metadataOnly: true }] });
    const informer = cache.informerFor(WidgetKind);
    cache.start(stop.signal);
    try {
      assert.ok(await cache.waitForCacheSync(stop.signal));
      const listed = informer.store.get(`${NAMESPACE}/w-2`);
      const read = await new ApiReader(transport, true).get(WidgetKind, {
        namespace: NAMESPACE,
        name: 'w-2',
      });
      await client.patch(read ?? {}, mergePatch({ metadata: { labels: { team: 'c' } } }));
      await eventuallyTrue(
        () => informer.store.get(`${NAMESPACE}/w-2`)?.metadata?.labels?.['team'] === 'c',
        'the watch to bring the new label',
      );
      const watched = informer.store.get(`${NAMESPACE}/w-2`);
      for (const obj of [listed, read, watched]) {
        assert.ok(obj);
        const refused = /cannot update Widget metadata\/w-2: it was read metadata-only/;
        await assert.rejects(client.update(obj), refused);
        await assert.rejects(client.status().update(obj), refused);
        await assert.rejects(
          client.create(obj),
          /cannot create Widget metadata\/w-2: it was read metadata-only/,
        );
      }
      const full = await client.direct().get(WidgetKind, { namespace: NAMESPACE, name: 'w-2' });
      assert.equal(full?.spec?.size, 3, 'the spec as it was');
    } finally {
      stop.abort();
    }
  });
});
