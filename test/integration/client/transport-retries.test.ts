import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { ConnectionLostError } from '../../../src/runtime/client/connection-lost-error.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { RequestTimeoutError } from '../../../src/runtime/client/request-timeout-error.ts';
import { transportFor, type Transport } from '../../../src/runtime/client/transport.ts';
import { restConfigOf } from '../../../src/runtime/config/rest-config-source.ts';
import type { RestConfig } from '../../../src/runtime/config/rest-config.ts';
import { http1OnlyProxy } from '../../support/http1-only-proxy.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { SeverableProxy } from '../../support/severable-proxy.ts';
import { ThrottlingProxy } from '../../support/throttling-proxy.ts';

/** How long a pooled HTTP/1.1 socket may sit idle, and the health check's ping timeout. */
const PING_TIMEOUT_MS = 1000;
/** HTTP/2's INTERNAL_ERROR, the code of a GOAWAY from a server that fails. */
const INTERNAL_ERROR = 2;

// When a request is sent again, and when it is not: a slow answer is waited for; a connection that
// broke before the answer sends a GET again, and a write only when the server provably never had it.
describe('the transport sends a request again only when the server cannot have done it, or it is a GET', () => {
  let env: Environment;
  let admin: Transport;
  let direct: RestConfig;
  let ns: string;
  const proxies: { close(): Promise<void> }[] = [];

  before(async () => {
    env = await startEnvironment();
    direct = restConfigOf(env.kubeConfig);
    admin = transportFor(direct);
    ns = `retries-${Date.now()}`;
    await newClient({ transport: admin }).create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns },
    });
  });
  after(async () => {
    for (const proxy of proxies) await proxy.close();
    await env?.stop();
  });

  const configMap = (name: string): V1ConfigMap => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: ns },
  });
  const http1Only = async (): Promise<{ proxy: SeverableProxy; client: Client }> => {
    const { proxy, config } = await http1OnlyProxy(direct);
    proxies.push(proxy);
    return {
      proxy,
      client: newClient({ transport: transportFor(config, { pingTimeoutMs: PING_TIMEOUT_MS }) }),
    };
  };
  /** The GETs of single ConfigMaps the API server has served, by its own count. */
  const servedGets = async (): Promise<number> => {
    const body = await admin.stream('/metrics', AbortSignal.timeout(10_000), 'text/plain');
    let text = '';
    for await (const chunk of body) text += String(chunk);
    let served = 0;
    for (const [, labels = '', value] of text.matchAll(/^apiserver_request_total\{([^}]*)\} (\d+)$/gm)) {
      const get = ['verb="GET"', 'resource="configmaps"', 'scope="resource"'].every((l) =>
        labels.includes(l),
      );
      if (get) served += Number(value);
    }
    return served;
  };

  it('waits for a slow answer to a GET on a kept-alive HTTP/1.1 socket, and sends it once', async () => {
    const { proxy, client } = await http1Only();
    await client.create(configMap('slow'));
    const before = await servedGets();
    const resume = env.pauseEtcd();
    let read: ReturnType<Client['get']>;
    try {
      read = client.get(ConfigMapKind, { namespace: ns, name: 'slow' });
      read.catch(() => undefined);
      // The answer takes several times the ping timeout: the storage under the API server hangs.
      await sleep(3 * PING_TIMEOUT_MS);
    } finally {
      resume();
    }
    assert.equal((await read)?.metadata?.name, 'slow');
    assert.equal(proxy.connections, 1, 'answered on the kept-alive socket it was sent on');
    assert.equal((await servedGets()) - before, 1, 'the API server got the GET once');
  });

  it('sends a write again that a GOAWAY with an error code says the server never had, and not one it may have had', async () => {
    const proxy = await ThrottlingProxy.start(direct);
    proxies.push(proxy);
    const client = newClient({ transport: transportFor(proxy.configFor(direct)) });
    const posts = (): string[] => proxy.requests.filter((r) => r.startsWith('POST'));
    // Not the connection's first stream: Go's transport does not retry that one after an error.
    await client.list(ConfigMapKind, { namespace: ns, limit: 1 });
    proxy.goAwayOnNext(INTERNAL_ERROR, { received: false });
    const created = await client.create(configMap('after-goaway'));
    assert.equal(created.metadata?.name, 'after-goaway');
    assert.deepEqual(
      posts().map((r) => r.endsWith('GOAWAY')),
      [true, false],
      'sent again on a new connection once the GOAWAY said it was never had',
    );

    await client.list(ConfigMapKind, { namespace: ns, limit: 1 });
    proxy.goAwayOnNext(INTERNAL_ERROR, { received: true });
    await assert.rejects(client.create(configMap('maybe-done')), ConnectionLostError);
    assert.equal(posts().length, 3, 'a write the server may have done is not sent again');
  });

  it('sends a request the server refuses again at once, then after 1 s, then 2 s, until its deadline: not every retry within milliseconds', async () => {
    const proxy = await ThrottlingProxy.start(direct);
    proxies.push(proxy);
    const deadlineMs = 4000;
    const transport = transportFor(proxy.configFor(direct), { requestTimeoutMs: deadlineMs });
    await newClient({ transport }).list(ConfigMapKind, { namespace: ns, limit: 1 });
    // A server shutting down behind a load balancer: every stream refused, nothing processed.
    proxy.refuseStreams();
    try {
      await assert.rejects(
        transport.request({ method: 'GET', path: `/api/v1/namespaces/${ns}/configmaps/refused` }),
        RequestTimeoutError,
      );
    } finally {
      proxy.release();
    }
    const sent = proxy.refusedAt;
    const gaps = sent.slice(1).map((at, i) => at - (sent[i] ?? at));
    // Sent at 0 and at once, then 1 s and 2 s later: a fifth sending would come 7 s after the first.
    assert.ok(sent.length >= 3 && sent.length <= 4, `sent ${sent.length} times within ${deadlineMs} ms`);
    const [first = Infinity, second = 0, third = Infinity] = gaps;
    assert.ok(first < 1000, `sent again at once after the first refusal, not ${Math.round(first)} ms later`);
    // Timers may fire a millisecond early on the clock read here.
    assert.ok(second >= 990, `waited a second before the second resend, not ${Math.round(second)} ms`);
    assert.ok(third >= 1990, `waited two before the third, not ${Math.round(third)} ms`);
  });

  /** Closes every connection through `proxy` and lets new ones through: a crash, as a client sees it. */
  const cut = (proxy: SeverableProxy): void => {
    proxy.sever();
    proxy.restore();
  };

  it('sends a GET again whose kept-alive HTTP/1.1 socket is cut before its answer', async () => {
    const { proxy, client } = await http1Only();
    await client.create(configMap('cut'));
    const resume = env.pauseEtcd();
    let read: ReturnType<Client['get']>;
    try {
      read = client.get(ConfigMapKind, { namespace: ns, name: 'cut' });
      read.catch(() => undefined);
      // The API server has the GET, and waits on its storage; then the socket goes.
      await sleep(PING_TIMEOUT_MS / 2);
      cut(proxy);
      await eventuallyTrue(() => proxy.connections === 2, 'the GET sent again on a new connection');
    } finally {
      resume();
    }
    assert.equal((await read)?.metadata?.name, 'cut');
  });

  it('sends a GET again each time its HTTP/2 connection dies under it, up to maxRetries', async () => {
    /** A GET started while etcd is paused, whose connection is cut `times`, each once it is out. */
    const cutUnder = async (
      maxRetries: number,
      times: number,
    ): Promise<Awaited<ReturnType<Client['get']>>> => {
      const proxy = await SeverableProxy.start(env.server);
      proxies.push(proxy);
      const client = newClient({ transport: transportFor({ ...direct, server: proxy.url }, { maxRetries }) });
      await client.get(ConfigMapKind, { namespace: ns, name: 'absent' });
      const resume = env.pauseEtcd();
      let read: ReturnType<Client['get']>;
      try {
        read = client.get(ConfigMapKind, { namespace: ns, name: 'twice' });
        read.catch(() => undefined);
        for (let connection = 1; connection <= times; connection++) {
          await eventuallyTrue(() => proxy.connections === connection, `the GET on connection ${connection}`);
          await sleep(PING_TIMEOUT_MS / 2);
          cut(proxy);
        }
      } finally {
        resume();
      }
      return read;
    };
    await newClient({ transport: admin }).create(configMap('twice'));
    const read = await cutUnder(10, 2);
    assert.equal(read?.metadata?.name, 'twice', 'answered on the third connection');
    await assert.rejects(cutUnder(1, 2), 'with maxRetries 1, the second death fails it');
  });

  it('fails a write whose HTTP/1.1 connection broke before its answer with a ConnectionLostError, sent once', async () => {
    const { proxy, client } = await http1Only();
    await client.create(configMap('before-cut'));
    const resume = env.pauseEtcd();
    try {
      const writing = client.create(configMap('cut-write'));
      writing.catch(() => undefined);
      await sleep(PING_TIMEOUT_MS / 2);
      cut(proxy);
      await assert.rejects(writing, ConnectionLostError);
    } finally {
      resume();
    }
    assert.equal(proxy.connections, 1, 'not sent again');
    await eventuallyTrue(
      async () => (await client.get(ConfigMapKind, { namespace: ns, name: 'cut-write' })) !== undefined,
      'the API server to have done the write it had taken: why it is not sent again',
    );
  });
});
