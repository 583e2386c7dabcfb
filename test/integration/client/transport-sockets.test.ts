import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import type { ClientRequest } from 'node:http';
import { createServer, type Server, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { isApiServerUnreachable } from '../../../src/runtime/client/api-server-unreachable.ts';
import { newClient } from '../../../src/runtime/client/client.ts';
import { ConnectionLostError } from '../../../src/runtime/client/connection-lost-error.ts';
import { transportFor, type Transport } from '../../../src/runtime/client/transport.ts';
import type { TransportOptions } from '../../../src/runtime/client/transport-options.ts';
import { restConfigOf } from '../../../src/runtime/config/rest-config-source.ts';
import type { RestConfig } from '../../../src/runtime/config/rest-config.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { http1OnlyProxy } from '../../support/http1-only-proxy.ts';
import { processFailures } from '../../support/process-failures.ts';
import { SeverableProxy } from '../../support/severable-proxy.ts';

/** How long the relay before a slow server holds each of the server's bytes. */
const LATENCY_MS = 300;

/**
 * A TCP server that takes each connection and resets it (a TCP RST) after `holdMs`, before any TLS
 * handshake can end: a server or load balancer that drops every new connection.
 */
class ResettingServer {
  readonly #server: Server;
  /** Connections taken since the start. */
  accepted = 0;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(holdMs: number): Promise<ResettingServer> {
    const server = createServer();
    const resetting = new ResettingServer(server);
    server.on('connection', (socket: Socket) => {
      resetting.accepted++;
      socket.on('error', () => undefined);
      setTimeout(() => socket.resetAndDestroy(), holdMs);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return resetting;
  }

  get url(): string {
    return `https://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/**
 * A socket option as Node last applied it to `socket`: it keeps each in a symbol-keyed field, and
 * calls setsockopt only when one changes. No socket option can be read back otherwise.
 */
function appliedOption(socket: Socket, name: string): unknown {
  const key = Object.getOwnPropertySymbols(socket).find((symbol) => symbol.description === name);
  return key ? (socket as unknown as Record<symbol, unknown>)[key] : `${name}: not kept by this Node`;
}

// The sockets the transport dials itself: a dial that fails or that nobody waits for any more must
// not end the process, a spare socket must not keep it alive, and each socket is set as Go's are.
describe("the transport's own sockets: dials given up or failed, the spare socket, socket options", () => {
  let env: Environment;
  let direct: RestConfig;
  let ns: string;
  const closers: { close(): Promise<void> }[] = [];

  before(async () => {
    env = await startEnvironment();
    direct = restConfigOf(env.kubeConfig);
    ns = `sockets-${Date.now()}`;
    await newClient({ kubeConfig: env.kubeConfig }).create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns },
    });
  });
  after(async () => {
    for (const closer of closers) await closer.close();
    await env?.stop();
  });

  const resetting = async (holdMs: number): Promise<ResettingServer> => {
    const server = await ResettingServer.start(holdMs);
    closers.push(server);
    return server;
  };
  /**
   * An HTTP/1.1-only proxy before the API server (or the API server itself), and before it a TCP
   * relay to sever or slow down, and the config of a client of the relay.
   */
  const relayed = async (
    http1: boolean,
  ): Promise<{ proxy: SeverableProxy; relay: SeverableProxy; config: RestConfig }> => {
    const { proxy, config } = http1
      ? await http1OnlyProxy(direct)
      : { proxy: await SeverableProxy.start(env.server), config: direct };
    const relay = await SeverableProxy.start(proxy.url);
    closers.push(proxy, relay);
    return { proxy, relay, config: { ...config, server: relay.url } };
  };
  /** {@link relayed} over HTTP/1.1, the server's bytes delayed: a dial takes a while. */
  const slowHttp1 = async (): Promise<{
    proxy: SeverableProxy;
    relay: SeverableProxy;
    config: RestConfig;
  }> => {
    const slow = await relayed(true);
    slow.relay.serverDelayMs = LATENCY_MS;
    return slow;
  };
  const get = (transport: Transport, signal?: AbortSignal): Promise<unknown> =>
    transport.request({ method: 'GET', path: '/api', ...(signal ? { signal } : {}) });

  it('fails a request given up before or during its dial with its own reason, and leaves the failed dial to whoever still waits', async () => {
    const server = await resetting(LATENCY_MS);
    const transport = transportFor({ ...direct, server: server.url });
    const watching = processFailures();
    try {
      // One request gives up while the dial goes on; the other waits for it and gets its failure.
      const givenUp = get(transport, AbortSignal.timeout(50));
      const waiting = get(transport);
      await assert.rejects(givenUp, { name: 'TimeoutError' });
      await assert.rejects(waiting, (err: unknown) => {
        assert.equal((err as { code?: unknown }).code, 'ECONNRESET');
        assert.ok(isApiServerUnreachable(err), 'a dial reset is an unreachable API server');
        return true;
      });
      assert.equal(server.accepted, 1, 'one dial for both');

      // A request given up before it is sent dials nothing, as in Go's transport.
      const shutdown = AbortSignal.abort(new Error('shutting down'));
      await assert.rejects(get(transport, shutdown), /shutting down/);
      await sleep(3 * LATENCY_MS);
      assert.equal(server.accepted, 1, 'no dial for a request given up');
    } finally {
      watching.stop();
    }
    assert.deepEqual(watching.failures, [], 'no dial failure left unhandled');
  });

  it('closes a spare HTTP/1.1 socket that is reset while nobody wants it, and goes on', async () => {
    const { proxy, relay, config } = await slowHttp1();
    const transport = transportFor(config);
    const watching = processFailures();
    try {
      // The request gives up during the TLS handshake; the socket dialled for it is kept as a spare.
      await assert.rejects(get(transport, AbortSignal.timeout(100)), { name: 'TimeoutError' });
      await eventuallyTrue(() => proxy.connections === 1, 'the dial to reach the server');
      await sleep(3 * LATENCY_MS);
      relay.reset();
      await sleep(LATENCY_MS);
      assert.ok(await get(transport), 'the next request answered');
    } finally {
      watching.stop();
    }
    assert.deepEqual(watching.failures, [], 'the reset of the spare socket crashed nothing');
    assert.equal(relay.connections, 2, 'the reset spare was dropped for a new connection');
  });

  it('lets a process whose only request gave up during the dial exit at once, though its spare socket could wait a minute', async () => {
    const { proxy, config } = await slowHttp1();
    const { server, ca, namespace, source } = config;
    const child = spawn(process.execPath, [join(import.meta.dirname, 'testdata', 'given-up-request.ts')], {
      env: { ...process.env, REST_CONFIG: JSON.stringify({ server, ca, namespace, source }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = once(child, 'exit');
    // The spare is kept for a minute (pingTimeoutMs in the child): an exit well before shows it holds nothing.
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    try {
      const [code, signal] = (await exited) as [number | null, string | null];
      assert.equal(signal, null, `the process did not exit by itself within 20 s: ${output}`);
      assert.equal(code, 0, output);
    } finally {
      clearTimeout(killer);
    }
    assert.equal(output, 'TimeoutError\n', 'the request gave up');
    await eventuallyTrue(
      () => proxy.connections === 1,
      'its dial to have ended its TLS handshake, leaving a spare socket behind',
      5000,
    );
  });

  it('fails a request whose HTTP/1.1 connection could not be made with the connection error, as HTTP/2 does: nothing was sent', async () => {
    const configMap = (name: string): { apiVersion: string; kind: string; metadata: object } => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: ns },
    });
    const unreachable = (err: unknown): true => {
      assert.ok(!(err instanceof ConnectionLostError), `not a ConnectionLostError: ${String(err)}`);
      assert.equal((err as { code?: unknown }).code, 'ECONNRESET', String(err));
      assert.ok(isApiServerUnreachable(err), 'an unreachable API server');
      return true;
    };
    const cases: readonly {
      readonly name: string;
      readonly http1: boolean;
      readonly options: TransportOptions;
    }[] = [
      { name: 'HTTP/2', http1: false, options: {} },
      { name: 'HTTP/1.1 found by ALPN', http1: true, options: {} },
      { name: 'HTTP/1.1 asked for', http1: true, options: { http2: false } },
    ];
    for (const { name, http1, options } of cases) {
      const { relay, config } = await relayed(http1);
      const client = newClient({ transport: transportFor(config, { ...options, pingTimeoutMs: 500 }) });
      await client.create(configMap(`${name.replaceAll(/[^a-z0-9]+/gi, '-').toLowerCase()}-first`));
      // The open connection is closed, new ones are closed before their TLS handshake ends; the
      // client has seen the first go once the health check's or idle timeout's 500 ms have passed.
      relay.sever();
      await sleep(1000);
      await assert.rejects(client.create(configMap('never-sent')), unreachable, name);
    }
  });

  it("dials every socket as Go's dialer does: Nagle off, and TCP keep-alive from 15 s of silence, then each 15 s, 9 times", async () => {
    const OPTIONS = [
      'kSetNoDelay',
      'kSetKeepAlive',
      'kSetKeepAliveInitialDelay',
      'kSetKeepAliveInterval',
      'kSetKeepAliveCount',
    ];
    const sockets = new Set<Socket>();
    const applied: unknown[][] = [];
    // Published once the request is written on its socket.
    const onRequest = (message: unknown): void => {
      const { socket } = (message as { request: ClientRequest }).request;
      if (!(socket instanceof Socket)) {
        applied.push(['no socket']);
        return;
      }
      sockets.add(socket);
      applied.push(OPTIONS.map((option) => appliedOption(socket, option)));
    };
    subscribe('http.client.request.start', onRequest);
    try {
      const { proxy, config } = await http1OnlyProxy(direct);
      closers.push(proxy);
      for (const options of [{}, { http2: false }]) {
        const transport = transportFor(config, options);
        // Three in turn on one socket (taken from the pool twice), and three at once on three.
        for (let i = 0; i < 3; i++) await get(transport);
        await Promise.all([get(transport), get(transport), get(transport)]);
      }
    } finally {
      unsubscribe('http.client.request.start', onRequest);
    }
    assert.equal(applied.length, 12, 'every request went out on a socket');
    // Seconds, as Node keeps them.
    for (const options of applied) assert.deepEqual(options, [true, true, 15, 15, 9], OPTIONS.join(', '));
    assert.ok(sockets.size >= 4, `the requests went out on ${sockets.size} sockets, new and reused`);
  });
});
