import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import type { KubeObject } from '../../../src/runtime/api/kube-object.ts';
import { newCache, type CacheOptions } from '../../../src/runtime/cache/cache.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import type { ObjectKey } from '../../../src/runtime/client/object-key.ts';
import { createOrPatch, createOrUpdate } from '../../../src/runtime/controllerutil/create-or-update.ts';
import { WidgetKind, widgetsCrd } from '../controller/support.ts';

describe('createOrUpdate and createOrPatch', () => {
  let env: Environment;
  let client: Client;
  before(async () => {
    env = await startEnvironment({ crdPaths: [widgetsCrd] });
    client = newClient({ kubeConfig: env.kubeConfig });
  });
  after(() => env.stop());

  /** Runs `work` with a client that reads through a synced cache of `options`, stopped after. */
  async function withCachedClient(
    options: Omit<CacheOptions, 'kubeConfig'>,
    work: (cached: Client) => Promise<void>,
  ): Promise<void> {
    const cache = newCache({ kubeConfig: env.kubeConfig, ...options });
    const stop = new AbortController();
    cache.informerFor(ConfigMapKind);
    cache.start(stop.signal);
    try {
      assert.ok(await cache.waitForCacheSync(stop.signal));
      await work(newClient({ kubeConfig: env.kubeConfig, cache }));
    } finally {
      stop.abort();
    }
  }

  it('creates, then updates only when the mutate function changed something', async () => {
    const key = { namespace: 'default', name: 'settings' };
    let mode = 'on';
    const mutate = (cm: { data?: Record<string, string> }): void => {
      cm.data = { mode };
    };
    const created = await createOrUpdate(client, ConfigMapKind, key, mutate);
    assert.equal(created.operation, 'created');
    assert.deepEqual(created.object.data, { mode: 'on' });

    const again = await createOrUpdate(client, ConfigMapKind, key, mutate);
    assert.equal(again.operation, 'unchanged');
    assert.equal(again.object.metadata?.resourceVersion, created.object.metadata?.resourceVersion);

    mode = 'off';
    const updated = await createOrUpdate(client, ConfigMapKind, key, mutate);
    assert.equal(updated.operation, 'updated');
    assert.deepEqual((await client.get(ConfigMapKind, key))?.data, { mode: 'off' });
  });

  it("updates an object its cache does not show yet (someone else's create, a shard's hand-over) instead of failing", async () => {
    // A cache of the ConfigMaps labelled shown=yes: one created without it is not there, as a
    // child whose shard label has yet to reach this shard's cache.
    await withCachedClient(
      {
        byKind: [{ kind: ConfigMapKind, labelSelector: 'shown=yes' }],
      },
      async (cached) => {
        const toNew = (cm: { data?: Record<string, string> }): void => {
          cm.data = { mode: 'new' };
        };
        const writes = {
          'lagging-update': (key: ObjectKey) => createOrUpdate(cached, ConfigMapKind, key, toNew),
          'lagging-patch': (key: ObjectKey) => createOrPatch(cached, ConfigMapKind, key, toNew),
        };
        for (const [name, write] of Object.entries(writes)) {
          const key = { namespace: 'default', name };
          await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: key, data: { mode: 'old' } });
          const outcome = await write(key);
          assert.equal(outcome.operation, 'updated', name);
          assert.deepEqual((await client.direct().get(ConfigMapKind, key))?.data, { mode: 'new' }, name);
        }
      },
    );
  });

  it("hands back the caller's own object when nothing changed, not the cache's", async () => {
    await withCachedClient({ byKind: [{ kind: ConfigMapKind }] }, async (cached) => {
      const keep = (cm: { data?: Record<string, string> }): void => {
        cm.data = { mode: 'kept' };
      };
      const writes = {
        'unchanged-update': (key: ObjectKey) => createOrUpdate(cached, ConfigMapKind, key, keep),
        'unchanged-patch': (key: ObjectKey) => createOrPatch(cached, ConfigMapKind, key, keep),
      };
      for (const [name, write] of Object.entries(writes)) {
        const key = { namespace: 'default', name };
        await write(key);
        const outcome = await write(key);
        assert.equal(outcome.operation, 'unchanged', name);
        // The caller may change what it got back; the cache's object stays as it was.
        const data = outcome.object.data ?? {};
        data['mode'] = 'changed by the caller';
        assert.deepEqual((await cached.get(ConfigMapKind, key))?.data, { mode: 'kept' }, name);
      }
    });
  });

  it('reads the cache without a copy only when asked to, and that object cannot be changed', async () => {
    await withCachedClient({ byKind: [{ kind: ConfigMapKind }] }, async (cached) => {
      const key = { namespace: 'default', name: 'looked-at' };
      const written: KubeObject = await cached.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: key,
        data: { a: '1' },
      });
      const uncopied = { unsafeDisableDeepCopy: true };
      const seen = await cached.get(ConfigMapKind, key, uncopied);
      assert.equal(seen?.metadata?.resourceVersion, written.metadata?.resourceVersion);
      assert.equal(seen, await cached.get(ConfigMapKind, key, uncopied));
      assert.throws(() => {
        (seen?.data ?? {})['a'] = '2';
      }, TypeError);
      const listed = await cached.list(ConfigMapKind, { namespace: 'default', ...uncopied });
      assert.ok(listed.items.includes(seen as (typeof listed.items)[number]));
      const own = await cached.get(ConfigMapKind, key);
      assert.notEqual(own, seen);
      (own?.data ?? {})['a'] = '2';
      assert.deepEqual(seen?.data, { a: '1' });
    });
  });

  it('refuses a mutate function that renames the object', async () => {
    await assert.rejects(
      createOrUpdate(client, ConfigMapKind, { namespace: 'default', name: 'fixed' }, (cm) => {
        cm.metadata = { ...cm.metadata, name: 'other' };
      }),
      /changed the object's name or namespace/,
    );
  });

  it('patches the object and its status separately, and says which changed', async () => {
    const key = { namespace: 'default', name: 'patched' };
    let size = 1;
    let reconciles = 1;
    const mutate = (w: { spec?: { size?: number }; status?: { reconciles?: number } }): void => {
      w.spec = { ...w.spec, size };
      w.status = { ...w.status, reconciles };
    };
    const created = await createOrPatch(client, WidgetKind, key, mutate);
    assert.equal(created.operation, 'created');
    assert.equal(created.object.status?.reconciles, 1);
    assert.equal((await createOrPatch(client, WidgetKind, key, mutate)).operation, 'unchanged');
    size = 2;
    assert.equal((await createOrPatch(client, WidgetKind, key, mutate)).operation, 'updated');
    reconciles = 2;
    assert.equal((await createOrPatch(client, WidgetKind, key, mutate)).operation, 'updatedStatusOnly');
    size = 3;
    reconciles = 3;
    const both = await createOrPatch(client, WidgetKind, key, mutate);
    assert.equal(both.operation, 'updatedStatus');
    const stored = await client.get(WidgetKind, key);
    assert.equal(stored?.spec?.size, 3);
    assert.equal(stored?.status?.reconciles, 3);
  });

  it('writes a Date as metav1.Time does: RFC 3339 to the second', async () => {
    const key = { namespace: 'default', name: 'timed' };
    await createOrPatch(client, WidgetKind, key, (w) => {
      w.status = { lastSeen: new Date(Date.UTC(2026, 10, 29, 12, 0, 0, 456)) };
    });
    const stored = await client.get(WidgetKind, key);
    assert.equal(stored?.status?.lastSeen, '2026-11-29T12:00:00Z');
  });
});
