import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newCache, type Cache } from '../../../src/runtime/cache/cache.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { restConfigOf } from '../../../src/runtime/config/rest-config-source.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { RecordingHandler } from '../../support/recording-handler.ts';
import { ThrottlingProxy } from '../../support/throttling-proxy.ts';

/** What the storm's 429s ask the client to wait. */
const RETRY_AFTER_S = 1;
/**
 * Longer than the 10 retries the transport makes of one request (10 × Retry-After), so that the
 * reflector's own backoff runs during the storm too.
 */
const STORM_MS = 15_000;
/** Room for a loaded machine beyond the Retry-After: scheduling, a list, the event's delivery. */
const SLACK_MS = 4000;

// The API server turning every request away with 429 and Retry-After for a while (API Priority
// and Fairness under load, a server restarting behind a load balancer). Lists and watches wait
// what the server asks, as client-go's do, instead of backing off further and further: what was
// written during the storm is in the cache within a Retry-After of its end.
describe('informers through a 429 storm', () => {
  let env: Environment;
  let admin: Client;
  let proxy: ThrottlingProxy;
  const stop = new AbortController();
  before(async () => {
    env = await startEnvironment();
    admin = newClient({ kubeConfig: env.kubeConfig });
    proxy = await ThrottlingProxy.start(restConfigOf(env.kubeConfig));
  });
  after(async () => {
    stop.abort();
    await proxy.close();
    await env.stop();
  });

  let namespaces = 0;
  const namespace = async (): Promise<string> => {
    const name = `storm-${++namespaces}`;
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    return name;
  };
  const configMap = (ns: string, name: string): V1ConfigMap => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: ns },
  });
  /** A cache through the proxy; its backoff without jitter, the slowest it may be. */
  const proxiedCache = (ns: string): { cache: Cache; handler: RecordingHandler } => {
    const transport = transportFor(proxy.configFor(restConfigOf(env.kubeConfig)));
    const cache = newCache({ transport, namespaces: [ns], random: () => 0 });
    const handler = new RecordingHandler();
    cache.informerFor(ConfigMapKind).addEventHandler(handler);
    return { cache, handler };
  };
  const turnedAway = (): number => proxy.requests.filter((r) => r.endsWith(' 429')).length;

  it('watches again within a Retry-After of the storm’s end: what was written during it is seen', async () => {
    const ns = await namespace();
    const { cache, handler } = proxiedCache(ns);
    cache.start(stop.signal);
    assert.equal(await cache.waitForCacheSync(), true);
    const before = turnedAway();

    proxy.throttle(RETRY_AFTER_S);
    await sleep(1000);
    await admin.create(configMap(ns, 'during'));
    await sleep(STORM_MS - 1000);
    assert.equal(handler.saw('add', 'during'), false, 'nothing passes during the storm');
    proxy.release();
    const ended = performance.now();

    await eventuallyTrue(() => handler.saw('add', 'during'), 'the object created during the storm');
    const late = performance.now() - ended;
    assert.ok(late < RETRY_AFTER_S * 1000 + SLACK_MS, `seen ${late.toFixed(0)} ms after the storm`);
    assert.ok(
      turnedAway() - before >= 10,
      `the watch was retried through the storm: ${turnedAway() - before}`,
    );
  });

  it('lists within a Retry-After of a storm at start-up: synced promptly after it', async () => {
    const ns = await namespace();
    await admin.create(configMap(ns, 'existing'));
    const { cache, handler } = proxiedCache(ns);
    proxy.throttle(RETRY_AFTER_S);
    cache.start(stop.signal);
    await sleep(STORM_MS);
    assert.equal(cache.informerFor(ConfigMapKind).hasSynced(), false);
    proxy.release();
    const ended = performance.now();

    assert.equal(await cache.waitForCacheSync(), true);
    const late = performance.now() - ended;
    assert.ok(late < RETRY_AFTER_S * 1000 + SLACK_MS, `synced ${late.toFixed(0)} ms after the storm`);
    assert.ok(handler.saw('add', 'existing'));
  });

  it('waits a Retry-After longer than 10 s in full, as client-go: one list, then synced after it', async () => {
    const ns = await namespace();
    await admin.create(configMap(ns, 'existing'));
    const { cache, handler } = proxiedCache(ns);
    const lists = (): number =>
      proxy.requests.filter(
        (r) => r.startsWith(`GET /api/v1/namespaces/${ns}/configmaps`) && !r.includes('watch='),
      ).length;
    const retryAfterS = 12;
    proxy.throttle(retryAfterS);
    const started = performance.now();
    cache.start(stop.signal);
    await sleep(retryAfterS * 1000 - 1000);
    assert.equal(lists(), 1, 'list requests within the Retry-After');
    proxy.release();

    assert.equal(await cache.waitForCacheSync(), true);
    const took = performance.now() - started;
    assert.ok(took < retryAfterS * 1000 + SLACK_MS, `synced ${took.toFixed(0)} ms after the start`);
    assert.ok(handler.saw('add', 'existing'));
  });
});
