import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { V1ConfigMap } from '@kubernetes/client-node';
import type { Json } from '../../../src/runtime/api/json.ts';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newCache, type Cache } from '../../../src/runtime/cache/cache.ts';
import { ApiError, isBadRequest } from '../../../src/runtime/client/api-error.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { labelSelectorPredicate } from '../../../src/runtime/predicate/label-selector-predicate.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { ObservedTransport } from '../../support/observed-transport.ts';

/** Each ConfigMap's labels: integers, text, a prefixed key, and none at all. */
const LABELS: Record<string, Record<string, string>> = {
  none: {},
  one: { n: '1', tier: 'web' },
  seven: { n: '7', tier: 'api', 'x.io/zone': 'a' },
  ten: { n: '10', tier: 'web', canary: '' },
  padded: { n: '007', tier: 'db' },
  word: { n: 'many', tier: 'in' },
  huge: { n: '99999999999999999999' },
};

const SELECTORS = [
  'n>5',
  'n<8',
  'n>1,n<10',
  'n>0,tier=web',
  'n>9223372036854775806',
  'tier in (web,api),n>6',
  'tier notin (web)',
  'tier in (in)',
  'tier!=web,!canary',
  'canary',
  'canary=',
  'x.io/zone',
  '!n',
  'tier in ()',
  'tier notin (,web)',
  'n==7',
  '',
];

const INVALID = [
  'n>x',
  'n>',
  'n<-1',
  'n>99999999999999999999',
  'tier in (web',
  '!n=1',
  'a b',
  'Bad_/x',
  'n=1,',
];

describe('label selectors: the cache answers as the API server', () => {
  let env: Environment;
  let admin: Client;
  let cache: Cache;
  let cached: Client;
  let watches: ObservedTransport;
  const ns = `labels-${randomUUID().slice(0, 8)}`;
  const stop = new AbortController();

  before(async () => {
    env = await startEnvironment();
    admin = newClient({ kubeConfig: env.kubeConfig });
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    for (const [name, labels] of Object.entries(LABELS)) {
      await admin.create<V1ConfigMap>({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: ns, labels },
      });
    }
    watches = new ObservedTransport(transportFor(env.kubeConfig));
    cache = newCache({ transport: watches, namespaces: [ns] });
    cache.start(stop.signal);
    cached = newClient({ kubeConfig: env.kubeConfig, cache, readYourWritesTimeoutMs: 300 });
    await eventuallyTrue(
      async () =>
        (await cache.list(ConfigMapKind, { namespace: ns })).items.length === Object.keys(LABELS).length,
      'the cache to hold every ConfigMap',
    );
  });
  after(async () => {
    stop.abort();
    await env.stop();
  });

  const names = (items: readonly Json<V1ConfigMap>[]): string[] =>
    items.map((c) => c.metadata?.name ?? '').sort();

  it('selects the same objects from the cache, the client and a label predicate as the API server does', async () => {
    for (const labelSelector of SELECTORS) {
      const server = names(
        (await admin.direct().list(ConfigMapKind, { namespace: ns, labelSelector })).items,
      );
      const fromCache = names((await cache.list(ConfigMapKind, { namespace: ns, labelSelector })).items);
      const fromClient = names(await cached.listAll(ConfigMapKind, { namespace: ns, labelSelector }));
      const all = (await cache.list(ConfigMapKind, { namespace: ns })).items;
      const predicate = labelSelectorPredicate(labelSelector);
      const passed = names(all.filter((object) => predicate({ type: 'generic', object })));
      assert.deepEqual(
        { fromCache, fromClient, passed },
        { fromCache: server, fromClient: server, passed: server },
        labelSelector,
      );
    }
  });

  it('refuses an invalid selector as the API server does: 400 BadRequest, with its message', async () => {
    for (const labelSelector of INVALID) {
      const refusal = async (read: Promise<unknown>): Promise<ApiError> => {
        const err = await read.then(
          () => undefined,
          (e: unknown) => e,
        );
        assert.ok(err instanceof ApiError && isBadRequest(err), `${labelSelector}: ${String(err)}`);
        return err;
      };
      const server = await refusal(admin.direct().list(ConfigMapKind, { namespace: ns, labelSelector }));
      const fromCache = await refusal(cache.list(ConfigMapKind, { namespace: ns, labelSelector }));
      const fromClient = await refusal(cached.list(ConfigMapKind, { namespace: ns, labelSelector }));
      assert.equal(fromCache.status.message, server.status.message, labelSelector);
      assert.equal(fromClient.status.message, server.status.message, labelSelector);
    }
  });

  it("waits for the client's own write that an integer selector selects", async () => {
    const one = await cached.get(ConfigMapKind, { namespace: ns, name: 'one' });
    assert.ok(one);
    // The cache's watch is held, so only a read that knows it must wait for the write sees it.
    watches.disconnect();
    try {
      await cached.patch(one, mergePatch({ metadata: { labels: { n: '42' } } }));
      const listed = names(await cached.listAll(ConfigMapKind, { namespace: ns, labelSelector: 'n>40' }));
      assert.deepEqual(listed, ['one']);
    } finally {
      watches.reconnect();
    }
  });
});
