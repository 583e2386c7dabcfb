import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { after, before, describe, it } from 'node:test';
import type { V1ConfigMap } from '@kubernetes/client-node';
import type { KubeObject } from '../../../src/runtime/api/kube-object.ts';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import {
  ApiError,
  isAlreadyExists,
  isConflict,
  isForbidden,
  isInvalid,
  isNotFound,
  ignoreNotFound,
} from '../../../src/runtime/client/api-error.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { defineKind } from '../../../src/runtime/client/kind.ts';
import { ConfigMapKind, DeploymentKind, NamespaceKind } from '../../../src/runtime/client/kinds.ts';
import { objectRef } from '../../../src/runtime/client/object-key.ts';
import {
  jsonPatch,
  mergePatch,
  mergePatchFrom,
  strategicMergePatch,
} from '../../../src/runtime/client/patch.ts';
import { resourcePath } from '../../../src/runtime/client/resource-path.ts';
import { retryOnConflict } from '../../../src/runtime/client/retry-on-conflict.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { newCache } from '../../../src/runtime/cache/cache.ts';

interface Widget extends KubeObject {
  spec?: { size?: number; tags?: string[] };
  status?: { ready?: boolean };
}
const WidgetKind = defineKind<Widget>({
  apiVersion: 'test.tsoperator.dev/v1',
  kind: 'Widget',
  plural: 'widgets',
  namespaced: true,
});

const CRDS = [new URL('./testdata/widgets.yaml', import.meta.url).pathname];

describe('Client against a real API server', () => {
  let env: Environment;
  let client: Client;
  const ns = `client-${randomUUID().slice(0, 8)}`;

  before(async () => {
    env = await startEnvironment({ crdPaths: CRDS });
    client = newClient({ kubeConfig: env.kubeConfig, fieldManager: 'client-test' });
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  });
  after(() => env.stop());

  const configMap = (
    name: string,
    data: Record<string, string> = {},
    labels: Record<string, string> = {},
  ): V1ConfigMap => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: ns, labels },
    data,
  });

  it('creates, gets, updates and deletes, and get answers undefined for a missing object', async () => {
    const created = await client.create(configMap('crud', { a: '1' }));
    assert.ok(created.metadata?.uid);
    const read = await client.get(ConfigMapKind, { namespace: ns, name: 'crud' });
    assert.ok(read);
    assert.deepEqual(read.data, { a: '1' });
    read.data = { a: '2' };
    const updated = await client.update(read);
    assert.notEqual(updated.metadata?.resourceVersion, created.metadata?.resourceVersion);
    assert.deepEqual((await client.get(ConfigMapKind, { namespace: ns, name: 'crud' }))?.data, { a: '2' });
    await client.delete(updated);
    assert.equal(await client.get(ConfigMapKind, { namespace: ns, name: 'crud' }), undefined);
    assert.equal(await ignoreNotFound(client.delete(updated)), undefined);
  });

  it('gets cluster-scoped objects', async () => {
    const got = await client.get(NamespaceKind, { name: ns });
    assert.equal(got?.metadata?.name, ns);
    assert.equal(got?.apiVersion, 'v1');
  });

  it('types its errors: AlreadyExists, Conflict, NotFound, Invalid, Forbidden', async () => {
    const cm = await client.create(configMap('errors'));
    await assert.rejects(
      client.create(configMap('errors')),
      (err) => isAlreadyExists(err) && err instanceof ApiError && err.code === 409,
    );
    await client.update({ ...cm, data: { x: 'y' } });
    await assert.rejects(client.update({ ...cm, data: { x: 'z' } }), isConflict);
    await assert.rejects(
      client.delete(objectRef(ConfigMapKind, { namespace: ns, name: 'nope' })),
      isNotFound,
    );
    await assert.rejects(client.create(configMap('Not_A_DNS_Name')), isInvalid);
    const nobody = await env.addUser('nobody');
    await assert.rejects(
      newClient({ kubeConfig: nobody.kubeConfig }).get(ConfigMapKind, { namespace: ns, name: 'errors' }),
      isForbidden,
    );
  });

  it('lists with label and field selectors, and pages with limit and continue', async () => {
    for (let i = 0; i < 7; i++)
      await client.create(configMap(`page-${i}`, {}, { set: 'paging', parity: i % 2 ? 'odd' : 'even' }));
    const odd = await client.list(ConfigMapKind, { namespace: ns, labelSelector: 'set=paging,parity=odd' });
    assert.deepEqual(
      odd.items.map((c) => c.metadata?.name),
      ['page-1', 'page-3', 'page-5'],
    );
    assert.ok(odd.items.every((c) => c.kind === 'ConfigMap' && c.apiVersion === 'v1'));
    const byName = await client.list(ConfigMapKind, { namespace: ns, fieldSelector: 'metadata.name=page-4' });
    assert.deepEqual(
      byName.items.map((c) => c.metadata?.name),
      ['page-4'],
    );
    const first = await client.list(ConfigMapKind, { namespace: ns, labelSelector: 'set=paging', limit: 3 });
    assert.equal(first.items.length, 3);
    assert.ok(first.continue);
    const second = await client.list(ConfigMapKind, {
      namespace: ns,
      labelSelector: 'set=paging',
      limit: 3,
      continue: first.continue,
    });
    assert.deepEqual(
      second.items.map((c) => c.metadata?.name),
      ['page-3', 'page-4', 'page-5'],
    );
    const all = await client.listAll(ConfigMapKind, { namespace: ns, labelSelector: 'set=paging', limit: 2 });
    assert.equal(all.length, 7);
  });

  it('patches with JSON merge, JSON patch, strategic merge and a computed merge patch', async () => {
    await client.create(configMap('patched', { a: '1', b: '2' }));
    const ref = objectRef(ConfigMapKind, { namespace: ns, name: 'patched' });
    const merged = await client.patch(ref, mergePatch({ data: { b: null, c: '3' } }));
    assert.deepEqual(merged.data, { a: '1', c: '3' });
    const patched = await client.patch(ref, jsonPatch([{ op: 'replace', path: '/data/a', value: 'one' }]));
    assert.deepEqual(patched.data, { a: 'one', c: '3' });
    const strategic = await client.patch(ref, strategicMergePatch({ metadata: { labels: { s: 'yes' } } }));
    assert.equal(strategic.metadata?.labels?.['s'], 'yes');
    const before = structuredClone(strategic);
    strategic.data = { a: 'one', d: '4' };
    const diffed = await client.patch(strategic, mergePatchFrom(before, strategic, { optimisticLock: true }));
    assert.deepEqual(diffed.data, { a: 'one', d: '4' });
    await assert.rejects(
      client.patch(strategic, mergePatchFrom(before, { ...before, data: {} }, { optimisticLock: true })),
      isConflict,
    );
  });

  it('merges strategic patches into lists by key on built-in kinds, and refuses them for custom kinds', async () => {
    const deployment = await client.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'smp', namespace: ns },
      spec: {
        selector: { matchLabels: { app: 'smp' } },
        template: {
          metadata: { labels: { app: 'smp' } },
          spec: {
            containers: [
              { name: 'a', image: 'a:1' },
              { name: 'b', image: 'b:1' },
            ],
          },
        },
      },
    });
    const patched = await client.patch(
      deployment,
      strategicMergePatch({ spec: { template: { spec: { containers: [{ name: 'b', image: 'b:2' }] } } } }),
    );
    assert.deepEqual(
      patched.spec?.template.spec?.containers.map((c) => `${c.name}=${c.image}`),
      ['a=a:1', 'b=b:2'],
    );
    assert.equal(
      (await client.get(DeploymentKind, { namespace: ns, name: 'smp' }))?.spec?.template.spec?.containers
        .length,
      2,
    );
    await assert.rejects(
      client.patch(objectRef(WidgetKind, { namespace: ns, name: 'w' }), strategicMergePatch({})),
      /strategic merge/,
    );
  });

  it('applies server-side with a field manager, and forces conflicting fields only when asked', async () => {
    const applied = await client.apply(
      { ...configMap('ssa', { owner: 'first' }) },
      { fieldManager: 'first' },
    );
    assert.ok(applied.metadata?.managedFields?.some((f) => f.manager === 'first' && f.operation === 'Apply'));
    await assert.rejects(
      client.apply(configMap('ssa', { owner: 'second' }), { fieldManager: 'second' }),
      isConflict,
    );
    const forced = await client.apply(configMap('ssa', { owner: 'second' }), {
      fieldManager: 'second',
      force: true,
    });
    assert.equal(forced.data?.['owner'], 'second');
  });

  it('writes the status subresource apart from the object', async () => {
    const widget = await client.create<Widget>({
      apiVersion: 'test.tsoperator.dev/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: ns },
      spec: { size: 1 },
    });
    const withStatus = await client
      .status()
      .update({ ...widget, spec: { size: 99 }, status: { ready: true } });
    assert.equal(withStatus.status?.ready, true);
    assert.equal(withStatus.spec?.size, 1, 'a status update leaves spec alone');
    const patched = await client.status().patch(withStatus, mergePatch({ status: { ready: false } }));
    assert.equal(patched.status?.ready, false);
    const noStatus = await client.update({ ...patched, spec: { size: 2 }, status: { ready: true } });
    assert.equal(noStatus.status?.ready, false, 'a main-resource update leaves status alone');
    assert.equal(noStatus.spec?.size, 2);
  });

  it('deletes with preconditions and a propagation policy, and honours dry-run', async () => {
    const cm = await client.create(configMap('precondition'));
    await assert.rejects(client.delete(cm, { preconditions: { uid: randomUUID() } }), isConflict);
    await client.delete(cm, { dryRun: true });
    assert.ok(await client.get(ConfigMapKind, { namespace: ns, name: 'precondition' }));
    await client.delete(cm, {
      preconditions: { uid: cm.metadata?.uid, resourceVersion: cm.metadata?.resourceVersion },
      propagationPolicy: 'Foreground',
    });
    // Foreground deletion marks the object and leaves it to the garbage collector (not running here).
    const marked = await client.get(ConfigMapKind, { namespace: ns, name: 'precondition' });
    assert.ok(marked?.metadata?.deletionTimestamp);
    assert.deepEqual(marked.metadata.finalizers, ['foregroundDeletion']);
    await client.delete(cm, { propagationPolicy: 'Background' });
    const dry = await client.create(configMap('dry'), { dryRun: true });
    assert.equal(dry.metadata?.name, 'dry');
    assert.equal(await client.get(ConfigMapKind, { namespace: ns, name: 'dry' }), undefined);
  });

  it('retries on conflict until the write goes through', async () => {
    await client.create(configMap('counter', { n: '0' }));
    const key = { namespace: ns, name: 'counter' };
    const stale = await client.get(ConfigMapKind, key);
    let attempts = 0;
    await retryOnConflict(async () => {
      attempts++;
      const current = attempts === 1 ? stale : await client.get(ConfigMapKind, key);
      assert.ok(current);
      if (attempts === 1) await client.update({ ...current, data: { n: '10' } });
      await client.update({ ...current, data: { n: String(Number(current.data?.['n']) + 1) } });
    });
    assert.equal(attempts, 2);
    assert.equal((await client.get(ConfigMapKind, key))?.data?.['n'], '11');
  });

  it("ends a stream when its caller's signal aborts after the answer began, and leaves no listener", async () => {
    const transport = transportFor(env.kubeConfig);
    const watching = new AbortController();
    const path = `${resourcePath(ConfigMapKind, ns)}?watch=true&timeoutSeconds=300`;
    const res = await transport.stream(path, watching.signal);
    // An aborted answer ends with an 'aborted' error, as the informers' readers see it.
    res.on('error', () => undefined);
    const closed = new Promise((resolve) => res.once('close', resolve));
    watching.abort();
    await closed;
    assert.equal(res.destroyed, true, 'the watch is closed at once, not when the server ends it');
    assert.equal(getEventListeners(watching.signal, 'abort').length, 0);

    const lasting = new AbortController();
    const second = await transport.stream(path, lasting.signal);
    const ended = new Promise((resolve) => second.once('close', resolve));
    second.destroy();
    await ended;
    assert.equal(
      getEventListeners(lasting.signal, 'abort').length,
      0,
      'a stream ended by its reader is unhooked too',
    );
  });

  it('refuses an empty or path-changing name on every read and write, cached or direct', async () => {
    const cache = newCache({ kubeConfig: env.kubeConfig, namespaces: [ns] });
    const stop = new AbortController();
    cache.start(stop.signal);
    try {
      const cached = newClient({ kubeConfig: env.kubeConfig, cache });
      const direct = client.direct();
      const stored = await client.create(configMap('named'));
      for (const reader of [cached, direct, cache, cache.apiFallback]) {
        await assert.rejects(
          reader.get(ConfigMapKind, { namespace: ns, name: '' }),
          /resource name may not be empty/,
        );
      }
      for (const name of ['..', 'a/b', '50%']) {
        await assert.rejects(direct.get(ConfigMapKind, { namespace: ns, name }), /invalid resource name/);
      }
      const dotted = { ...stored, metadata: { ...stored.metadata, name: '..' } };
      const merge = mergePatch({ data: { a: 'b' } });
      const writes = [
        cached.update(dotted),
        cached.patch(dotted, merge),
        cached.apply(dotted),
        cached.delete(dotted),
        cached.status().update(dotted),
        cached.status().patch(dotted, merge),
      ];
      for (const write of writes) await assert.rejects(write, /invalid resource name "\.\."/);
    } finally {
      stop.abort();
    }
  });
});
