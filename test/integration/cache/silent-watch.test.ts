import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newCache, type CacheOptions } from '../../../src/runtime/cache/cache.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { resourcePath } from '../../../src/runtime/client/resource-path.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { restConfigOf } from '../../../src/runtime/config/rest-config-source.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { ObservedTransport } from '../../support/observed-transport.ts';
import { RecordingHandler } from '../../support/recording-handler.ts';
import { SeverableProxy } from '../../support/severable-proxy.ts';

/** How long a pooled HTTP/1.1 socket may sit idle before the transport closes it. */
const PING_TIMEOUT_MS = 500;
/** The API server's watch cache sends a watch a bookmark at least once a minute. */
const BOOKMARK_WITHIN_MS = 65_000;
/** Room for a loaded machine: scheduling, a TLS handshake, the event's delivery. */
const SLACK_MS = 5000;

// Over HTTP/1.1 nothing pings a connection: a watch whose path died without a reset would wait
// for its timeout (5 to 10 minutes). The watch itself notices: the API server's watch cache sends
// a bookmark about once a minute, so a watch silent for longer is restarted, and a quiet one
// is not.
describe('watches over HTTP/1.1 on a path that goes silent', { concurrency: true }, () => {
  let env: Environment;
  let admin: Client;
  const proxies: SeverableProxy[] = [];
  const stop = new AbortController();
  before(async () => {
    // envtest's etcd sends progress notifications every 5 s, as kubeadm sets etcd up: the watch
    // cache then hears of what is written anywhere, and its minutely bookmarks carry it.
    env = await startEnvironment();
    admin = newClient({ kubeConfig: env.kubeConfig });
  });
  after(async () => {
    stop.abort();
    for (const proxy of proxies) await proxy.close();
    await env.stop();
  });

  const namespace = async (name: string): Promise<string> => {
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    return name;
  };
  const configMap = (ns: string, name: string): V1ConfigMap => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: ns },
  });
  /** A synced ConfigMap cache of `ns` through a proxy, on HTTP/1.1. */
  const cacheThroughProxy = async (
    ns: string,
    options: Partial<CacheOptions>,
  ): Promise<{ proxy: SeverableProxy; transport: ObservedTransport; handler: RecordingHandler }> => {
    const proxy = await SeverableProxy.start(env.server);
    proxies.push(proxy);
    const config = { ...restConfigOf(env.kubeConfig), server: proxy.url };
    const transport = new ObservedTransport(
      transportFor(config, { http2: false, pingTimeoutMs: PING_TIMEOUT_MS }),
    );
    const cache = newCache({ transport, namespaces: [ns], ...options });
    const handler = new RecordingHandler();
    cache.informerFor(ConfigMapKind).addEventHandler(handler);
    cache.start(stop.signal);
    assert.equal(await cache.waitForCacheSync(), true);
    return { proxy, transport, handler };
  };

  /** Silences the proxy, writes an object, and waits for the cache to have it: how long it took. */
  const silencedUntilSeen = async (
    ns: string,
    proxy: SeverableProxy,
    handler: RecordingHandler,
    idleMs: number,
  ): Promise<number> => {
    const connectionsBefore = proxy.connections;
    proxy.silence();
    const silenced = performance.now();
    await admin.create(configMap(ns, 'written-while-silent'));
    await eventuallyTrue(
      () => handler.saw('add', 'written-while-silent'),
      'the object written on the API server',
      idleMs + PING_TIMEOUT_MS + SLACK_MS,
    );
    assert.ok(proxy.connections > connectionsBefore, 'on a new connection');
    return performance.now() - silenced;
  };

  it('restarts a watch whose path went silent before any bookmark: what was written meanwhile arrives', async () => {
    const idleMs = 3000;
    const ns = await namespace('silent-at-once');
    const { proxy, handler } = await cacheThroughProxy(ns, { watchIdleTimeoutMs: idleMs });
    // The watch is open and delivering; whether the server sends bookmarks is not known yet.
    await admin.create(configMap(ns, 'written-before'));
    await eventuallyTrue(() => handler.saw('add', 'written-before'), 'the watch delivering');
    const took = await silencedUntilSeen(ns, proxy, handler, idleMs);
    assert.ok(took >= idleMs - 100, `the watch was restarted after its idle time, not before: ${took} ms`);
  });

  it('restarts a watch silent for watchIdleTimeoutMs after bookmarks: what was written meanwhile arrives', async () => {
    const idleMs = 3000;
    const ns = await namespace('silent');
    // A watch of 120 s (no jitter): the server's first bookmark comes within a minute.
    const { proxy, handler } = await cacheThroughProxy(ns, {
      watchIdleTimeoutMs: idleMs,
      minWatchTimeoutSeconds: 120,
      random: () => 0,
    });
    // Past the first bookmark; events keep the watch from going silent meanwhile.
    for (let i = 0; i * 1000 < BOOKMARK_WITHIN_MS; i++) {
      await admin.create(configMap(ns, `written-meanwhile-${i}`));
      await eventuallyTrue(() => handler.saw('add', `written-meanwhile-${i}`), 'the watch delivering');
      await sleep(1000);
    }
    // The watch is open and delivering before its path goes silent.
    await admin.create(configMap(ns, 'written-before'));
    await eventuallyTrue(() => handler.saw('add', 'written-before'), 'the watch delivering');
    const took = await silencedUntilSeen(ns, proxy, handler, idleMs);
    assert.ok(took >= idleMs - 100, `the watch was restarted after its idle time, not before: ${took} ms`);
  });

  it('does not restart a quiet watch: the API server’s bookmarks keep it open', async () => {
    // A watch of 120 s (no jitter), with bookmarks at 60 s and just before its end. Idle 65 s,
    // guarded from the start: without bookmarks the watch would be restarted at 65 s.
    const ns = await namespace('quiet');
    const { proxy, transport } = await cacheThroughProxy(ns, {
      watchIdleTimeoutMs: 65_000,
      minWatchTimeoutSeconds: 120,
      random: () => 0,
    });
    const path = resourcePath(ConfigMapKind, ns);
    await eventuallyTrue(() => transport.watches.get(path) === 1, 'the watch');
    await sleep(100_000);
    assert.equal(transport.watches.get(path), 1, 'no watch request but the first within its 120 s');
    assert.equal(proxy.connections, 1, 'one connection');
  });
});
