import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newCache } from '../../../src/runtime/cache/cache.ts';
import { newClient } from '../../../src/runtime/client/client.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { Controller } from '../../../src/runtime/controller/controller.ts';
import { enqueueForObject } from '../../../src/runtime/handler/enqueue-for-object.ts';
import { LOW_PRIORITY } from '../../../src/runtime/workqueue/add-options.ts';
import { createConfigMaps, uniqueNamespace } from './support.ts';

describe('the priorities a controller queues events at', () => {
  let env: Environment;
  const stop = new AbortController();
  before(async () => {
    env = await startEnvironment();
  });
  after(async () => {
    stop.abort();
    await env.stop();
  });

  it('the initial list and periodic resyncs go in low, a live change at the default priority', async () => {
    const ns = uniqueNamespace('priorities');
    await createConfigMaps(env, ns, ['a']);
    const cache = newCache({ kubeConfig: env.kubeConfig, namespaces: [ns], resyncPeriodMs: 500 });
    // Not started: the test takes the queue's items itself, with the priority each came in at.
    const controller = new Controller({
      name: 'priorities',
      registry: new Registry(),
      reconciler: { reconcile: async () => ({}) },
    });
    controller.watch(cache.informerFor(ConfigMapKind), enqueueForObject());
    cache.start(stop.signal);
    assert.equal(await cache.waitForCacheSync(), true);
    const next = async (): Promise<{ key: string; priority: number }> => {
      const item = await controller.queue.get();
      assert.equal(item.shutdown, false);
      controller.queue.done(item.key);
      return { key: item.key, priority: item.priority };
    };

    assert.deepEqual(await next(), { key: `${ns}/a`, priority: LOW_PRIORITY }, 'from the initial list');
    // Nothing changes: what comes next is a resync.
    assert.deepEqual(await next(), { key: `${ns}/a`, priority: LOW_PRIORITY }, 'from a resync');

    await newClient({ kubeConfig: env.kubeConfig }).patch(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: ns, name: 'a' } },
      mergePatch({ data: { changed: 'yes' } }),
    );
    // Resyncs may still come first; the change arrives at the default priority.
    const seen: number[] = [];
    for (let item = await next(); ; item = await next()) {
      seen.push(item.priority);
      if (item.priority !== LOW_PRIORITY) break;
      assert.ok(seen.length < 20, 'the change never came');
    }
    assert.equal(seen.at(-1), 0);
    controller.queue.shutDown();
  });
});
