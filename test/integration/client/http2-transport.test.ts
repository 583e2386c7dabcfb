import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newCache } from '../../../src/runtime/cache/cache.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { isApiServerUnreachable } from '../../../src/runtime/client/api-server-unreachable.ts';
import { ConnectionLostError } from '../../../src/runtime/client/connection-lost-error.ts';
import { RequestTimeoutError } from '../../../src/runtime/client/request-timeout-error.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { resourcePath } from '../../../src/runtime/client/resource-path.ts';
import { transportFor, type Transport } from '../../../src/runtime/client/transport.ts';
import type { TransportOptions } from '../../../src/runtime/client/transport-options.ts';
import { restConfigOf } from '../../../src/runtime/config/rest-config-source.ts';
import type { RestConfig } from '../../../src/runtime/config/rest-config.ts';
import { ConnectProxy } from '../../support/connect-proxy.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { http1OnlyProxy } from '../../support/http1-only-proxy.ts';
import { ObservedTransport } from '../../support/observed-transport.ts';
import { RecordingHandler } from '../../support/recording-handler.ts';
import { SeverableProxy } from '../../support/severable-proxy.ts';

/** The API server's stream limit per connection here, so that a test can reach it. */
const MAX_STREAMS = 20;
/** Health-check timings set short, from which each recovery bound below is derived. */
const READ_IDLE_MS = 1000;
const PING_TIMEOUT_MS = 500;
const HEALTH: TransportOptions = { readIdleTimeoutMs: READ_IDLE_MS, pingTimeoutMs: PING_TIMEOUT_MS };
/** The reflector's first backoff after a failed watch is at most twice its 800 ms. */
const REWATCH_MS = 1600;
/** Room for a loaded machine: scheduling, a TLS handshake, a list. */
const SLACK_MS = 5000;
/** A silent path is noticed within the idle time and a PING's timeout. */
const NOTICED_MS = READ_IDLE_MS + PING_TIMEOUT_MS;

describe('the transport on a real network: HTTP/2, health checks, fallbacks', () => {
  let env: Environment;
  let admin: Client;
  let direct: RestConfig;
  let ns: string;
  const proxies: { close(): Promise<void> }[] = [];
  const stop = new AbortController();

  before(async () => {
    env = await startEnvironment({ apiServerArgs: [`--http2-max-streams-per-connection=${MAX_STREAMS}`] });
    direct = restConfigOf(env.kubeConfig);
    admin = newClient({ kubeConfig: env.kubeConfig });
    ns = `h2-${Date.now()}`;
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  });
  after(async () => {
    stop.abort();
    for (const proxy of proxies) await proxy.close();
    await env?.stop();
  });

  const proxied = async (): Promise<SeverableProxy> => {
    const proxy = await SeverableProxy.start(env.server);
    proxies.push(proxy);
    return proxy;
  };
  const through = (proxy: SeverableProxy, options: TransportOptions = {}): Transport =>
    transportFor({ ...direct, server: proxy.url }, options);
  const configMap = (name: string): V1ConfigMap => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: ns },
    data: { v: '1' },
  });
  const watchPath = `${resourcePath(ConfigMapKind, 'default')}?watch=1&timeoutSeconds=300`;
  /** An HTTP/1.1-only proxy that ends TLS, trusted by the config it returns. */
  const http1Only = async (): Promise<{ proxy: SeverableProxy; config: RestConfig }> => {
    const only = await http1OnlyProxy(direct);
    proxies.push(only.proxy);
    return only;
  };

  it('carries many watches and requests on one HTTP/2 connection, and opens a second at the stream limit', async () => {
    const proxy = await proxied();
    const transport = through(proxy);
    const client = newClient({ transport });
    const watches = new AbortController();
    const open = await Promise.all(
      Array.from({ length: MAX_STREAMS - 5 }, () => transport.stream(watchPath, watches.signal)),
    );
    for (const watch of open) watch.on('error', () => undefined);
    for (let batch = 0; batch < 8; batch++) {
      await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          client
            .create(configMap(`one-${batch}-${i}`))
            .then(() => client.get(ConfigMapKind, { namespace: ns, name: `one-${batch}-${i}` })),
        ),
      );
    }
    assert.equal(proxy.connections, 1, 'one connection for every watch and request');

    const more = await Promise.all(
      Array.from({ length: 10 }, () => transport.stream(watchPath, watches.signal)),
    );
    for (const watch of more) watch.on('error', () => undefined);
    assert.equal(proxy.connections, 2, "a second connection once the server's stream limit is reached");
    watches.abort();
  });

  it('notices a silently dead path by PING and resumes every informer on a fresh connection', async () => {
    const proxy = await proxied();
    const transport = new ObservedTransport(through(proxy, HEALTH));
    const cache = newCache({ transport, namespaces: [ns] });
    const handler = new RecordingHandler();
    cache.informerFor(ConfigMapKind).addEventHandler(handler);
    cache.start(stop.signal);
    assert.equal(await cache.waitForCacheSync(), true);
    assert.equal(proxy.connections, 1);

    proxy.silence();
    await admin.create(configMap('after-silence'));
    await eventuallyTrue(
      () => handler.saw('add', 'after-silence'),
      'the informer to see an object created after its path went silent',
      NOTICED_MS + REWATCH_MS + SLACK_MS,
    );
    assert.equal(proxy.connections, 2, 'the dead connection was replaced by one new connection');
  });

  it('sends a GET that met a dead connection again on a fresh one, and fails a write fast with a clear error', async () => {
    const proxy = await proxied();
    const client = newClient({ transport: through(proxy, { ...HEALTH, requestTimeoutMs: 30_000 }) });
    await client.create(configMap('before-silence'));
    proxy.silence();
    const started = performance.now();
    const read = await client.get(ConfigMapKind, { namespace: ns, name: 'before-silence' });
    assert.equal(read?.metadata?.name, 'before-silence');
    assert.ok(
      performance.now() - started < NOTICED_MS + SLACK_MS,
      'the GET went again on a fresh connection, not after its 30 s deadline',
    );

    proxy.silence();
    const writing = performance.now();
    await assert.rejects(client.create(configMap('lost-write')), (err: unknown) => {
      assert.ok(err instanceof ConnectionLostError, `a ConnectionLostError, got ${String(err)}`);
      assert.match(err.message, /POST .*configmaps\?.*: the connection to the API server was lost .*ping/);
      return true;
    });
    assert.ok(
      performance.now() - writing < NOTICED_MS + SLACK_MS,
      'the write failed within the health check',
    );
  });

  it('fails a write whose connection broke before its answer with a ConnectionLostError', async () => {
    const proxy = await proxied();
    const client = newClient({ transport: through(proxy) });
    await client.create(configMap('before-break'));
    proxy.silence();
    const writing = client.create(configMap('broken-write'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.sever();
    await assert.rejects(writing, (err: unknown) => {
      assert.ok(err instanceof ConnectionLostError, `a ConnectionLostError, got ${String(err)}`);
      assert.ok(isApiServerUnreachable(err), 'a lost connection is an unreachable API server');
      return true;
    });
  });

  it('falls back to HTTP/1.1 when ALPN offers no h2; a GET on a socket that went silent is not sent twice, and an idle socket is not reused', async () => {
    const { proxy, config } = await http1Only();
    const deadlineMs = 2000;
    const client = newClient({
      transport: transportFor(config, { ...HEALTH, requestTimeoutMs: deadlineMs }),
    });
    await client.create(configMap('over-http1'));
    const watch = await transportFor(config).stream(watchPath, stop.signal);
    watch.destroy();
    assert.ok(proxy.negotiated.length > 0 && !proxy.negotiated.includes('h2'), 'no connection spoke h2');

    // Over HTTP/1.1 nothing tells a path that died from a server slow to answer: the GET waits
    // for its deadline on the socket it went out on, as in Go's transport, and is not sent twice.
    const connections = proxy.connections;
    proxy.silence();
    const started = performance.now();
    await assert.rejects(
      client.get(ConfigMapKind, { namespace: ns, name: 'over-http1' }),
      RequestTimeoutError,
    );
    assert.ok(performance.now() - started >= deadlineMs - 100, 'it waited for its deadline');
    assert.equal(proxy.connections, connections, 'it was not sent again on another connection');
    const again = await client.get(ConfigMapKind, { namespace: ns, name: 'over-http1' });
    assert.equal(again?.metadata?.name, 'over-http1', 'the next GET went on a fresh socket');

    // A socket idle in the pool for pingTimeoutMs is closed: a path that died while it sat there
    // longer costs nothing.
    proxy.silence();
    await new Promise((resolve) => setTimeout(resolve, 2 * PING_TIMEOUT_MS));
    const idleStarted = performance.now();
    const fresh = await client.get(ConfigMapKind, { namespace: ns, name: 'over-http1' });
    assert.equal(fresh?.metadata?.name, 'over-http1');
    assert.ok(performance.now() - idleStarted < SLACK_MS, 'answered on a fresh connection at once');
  });

  it('asks for h2 at each new connection: an HTTP/1.1-only server costs no extra dial, and one offering h2 again gets one HTTP/2 connection', async () => {
    const { proxy, config } = await http1Only();
    const client = newClient({ transport: transportFor(config, HEALTH) });
    const list = (): Promise<unknown> => client.list(ConfigMapKind, { namespace: ns, limit: 1 });
    for (let i = 0; i < 5; i++) await list();
    assert.equal(proxy.connections, 1, 'five requests on the one connection dialled');
    assert.deepEqual(proxy.negotiated, ['http/1.1'], 'which found HTTP/1.1');

    proxy.offer(['h2', 'http/1.1']);
    // The HTTP/1.1 socket is closed once idle for pingTimeoutMs; the next request dials anew.
    await new Promise((resolve) => setTimeout(resolve, 2 * PING_TIMEOUT_MS));
    await list();
    await Promise.all(Array.from({ length: MAX_STREAMS / 2 }, list));
    assert.equal(proxy.connections, 2, 'one new connection for every request after');
    assert.deepEqual(proxy.negotiated, ['http/1.1', 'h2'], 'which speaks HTTP/2');
  });

  it("tunnels through a kubeconfig's proxy-url, HTTP/2 and all, on one tunnel", async () => {
    const connectProxy = await ConnectProxy.start();
    proxies.push(connectProxy);
    const client = newClient({ transport: transportFor({ ...direct, proxyUrl: connectProxy.url }) });
    await Promise.all(Array.from({ length: 10 }, (_, i) => client.create(configMap(`tunnelled-${i}`))));
    const served = await client.list(ConfigMapKind, { namespace: ns });
    assert.ok(served.items.some((c) => c.metadata?.name === 'tunnelled-9'));
    assert.deepEqual(connectProxy.tunnels, [new URL(env.server).host], 'ten writes and a list on one tunnel');
  });

  it("reads a large list from a distant server in a few round trips: Go's flow-control windows", async () => {
    const big = `big-${Date.now()}`;
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: big } });
    const payload = 'x'.repeat(900_000);
    for (let i = 0; i < 4; i++) {
      await admin.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `big-${i}`, namespace: big },
        data: { v: payload },
      });
    }
    const proxy = await proxied();
    const client = newClient({ transport: through(proxy) });
    await client.list(ConfigMapKind, { namespace: big, limit: 1 });
    proxy.latencyMs = 100;
    const started = performance.now();
    const listed = await client.list(ConfigMapKind, { namespace: big });
    const tookMs = performance.now() - started;
    assert.equal(listed.items.length, 4);
    // 3.6 MB in 64 KiB windows would take 55 round trips of 200 ms: 11 s.
    assert.ok(
      tookMs < 4000,
      `3.6 MB listed in ${Math.round(tookMs)} ms, more than a few round trips of 200 ms`,
    );
  });

  it('does not take an event loop blocked past the ping timeout for a dead connection', async () => {
    const proxy = await proxied();
    const transport = through(proxy, { readIdleTimeoutMs: 200, pingTimeoutMs: 500 });
    const watches = new AbortController();
    const watch = await transport.stream(watchPath, watches.signal);
    let failed: unknown;
    watch.on('error', (err: unknown) => (failed = err));
    watch.resume();
    // Synchronous work of a second at a time, each leaving the loop only for its check phase.
    for (let round = 0; round < 5; round++) {
      await new Promise((resolve) => setImmediate(resolve));
      const until = performance.now() + 1000;
      while (performance.now() < until);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(failed, undefined, 'the watch was not failed');
    assert.equal(proxy.connections, 1, 'the connection was kept');
    watches.abort();
  });

  it('checks an API server given by address against that address through a proxy-url', async () => {
    const { config } = await http1Only();
    const connectProxy = await ConnectProxy.start();
    proxies.push(connectProxy);
    const client = newClient({ transport: transportFor({ ...config, proxyUrl: connectProxy.url }) });
    const listed = await client.list(ConfigMapKind, { namespace: ns });
    assert.ok(
      Array.isArray(listed.items),
      'listed through the tunnel, the certificate of 127.0.0.1 accepted',
    );
  });

  it('keeps one connection and one watch on a quiet kind over many health-check periods', async () => {
    const proxy = await proxied();
    const quiet = `quiet-${Date.now()}`;
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: quiet } });
    const transport = new ObservedTransport(through(proxy, { readIdleTimeoutMs: 200, pingTimeoutMs: 500 }));
    const cache = newCache({ transport, namespaces: [quiet] });
    cache.informerFor(ConfigMapKind);
    cache.start(stop.signal);
    assert.equal(await cache.waitForCacheSync(), true);
    // 20 read-idle periods: a PING each, on a connection nothing else reads from.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    assert.equal(proxy.connections, 1, 'pings keep the connection, they do not replace it');
    assert.deepEqual([...transport.watches.values()], [1], 'the watch was never restarted');
  });
});

describe('the transport against an API server that sends GOAWAY at random', () => {
  let env: Environment;
  let admin: Client;
  let proxy: SeverableProxy;
  const stop = new AbortController();

  before(async () => {
    env = await startEnvironment({ apiServerArgs: ['--goaway-chance=0.02'] });
    admin = newClient({ kubeConfig: env.kubeConfig });
    proxy = await SeverableProxy.start(env.server);
  });
  after(async () => {
    stop.abort();
    await proxy?.close();
    await env?.stop();
  });

  it('keeps checking a connection that is going away while its watch still runs on it', async () => {
    const ns = `goaway-${Date.now()}`;
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    const transport = transportFor({ ...restConfigOf(env.kubeConfig), server: proxy.url }, HEALTH);
    const cache = newCache({ transport, namespaces: [ns] });
    const handler = new RecordingHandler();
    cache.informerFor(ConfigMapKind).addEventHandler(handler);
    cache.start(stop.signal);
    assert.equal(await cache.waitForCacheSync(), true);
    const client = newClient({ transport });
    // GETs until a GOAWAY sends the next request on a new connection; the watch stays on the old.
    while (proxy.connections < 2) await client.list(ConfigMapKind, { namespace: ns, limit: 1 });

    proxy.silence();
    await admin.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'after-goaway', namespace: ns },
    });
    await eventuallyTrue(
      () => handler.saw('add', 'after-goaway'),
      'the informer to see an object created after the path of its draining connection went silent',
      NOTICED_MS + REWATCH_MS + SLACK_MS,
    );
  });
});
