import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { connect as tlsConnect, createServer as createTlsServer } from 'node:tls';
import type { CertKeyPair } from '../../src/runtime/tls/certificate-authority.ts';

/**
 * Ends TLS at the proxy and opens its own TLS to the server, offering the client only the ALPN
 * protocols given (until `offer` changes them) and the server the one agreed: what a proxy or load
 * balancer that speaks HTTP/1.1 alone does. The client must trust `serving`'s CA; the proxy
 * authenticates upstream as `upstream`.
 */
export interface TlsTermination {
  /** In order of preference. */
  readonly alpnProtocols: readonly string[];
  readonly serving: CertKeyPair;
  readonly upstream: { readonly ca: string; readonly cert: string; readonly key: string };
}

/** One client connection and its upstream: forwarded until the pair is silenced or cut. */
interface Pair {
  readonly client: Socket;
  readonly upstream: Socket;
  silent: boolean;
}

/**
 * A TCP proxy to `https://host:port` on a free loopback port that a test can break, as networks
 * break: `sever()` cuts every connection and refuses new ones until `restore()` (a partition);
 * `silence()` stops forwarding on every open connection without closing it, while new ones go
 * through (a NAT or conntrack entry dropped, a load balancer failed over). TLS passes through
 * untouched unless `termination` is given.
 */
export class SeverableProxy {
  readonly #server: Server;
  readonly #pairs = new Set<Pair>();
  #severed = false;
  /** Connections accepted (and forwarded) since the start. */
  connections = 0;
  /** The ALPN protocol each terminated connection agreed with its client, in order. */
  readonly negotiated: string[] = [];
  /** The ALPN protocols a terminating proxy offers its clients now. */
  readonly #alpn: { offered: readonly string[] };

  private constructor(server: Server, alpn: { offered: readonly string[] }) {
    this.#server = server;
    this.#alpn = alpn;
  }

  /** Starts a proxy to the server of `url`, on `port` (default: a free one). */
  static async start(url: string, termination?: TlsTermination, port = 0): Promise<SeverableProxy> {
    const target = new URL(url);
    const host = target.hostname;
    const targetPort = Number(target.port);
    const alpn = { offered: termination?.alpnProtocols ?? [] };
    const server = termination
      ? createTlsServer({
          cert: termination.serving.cert,
          key: termination.serving.key,
          ALPNCallback: ({ protocols }) => alpn.offered.find((p) => protocols.includes(p)),
        })
      : createServer();
    const proxy = new SeverableProxy(server, alpn);
    if (termination) {
      server.on('secureConnection', (socket: Socket & { alpnProtocol?: string | false }) => {
        const agreed = socket.alpnProtocol || 'none';
        proxy.negotiated.push(agreed);
        proxy.#accept(socket, () =>
          tlsConnect({
            host,
            port: targetPort,
            ...termination.upstream,
            ALPNProtocols: [agreed === 'none' ? 'http/1.1' : agreed],
          }),
        );
      });
    } else {
      server.on('connection', (socket: Socket) => proxy.#accept(socket, () => connect(targetPort, host)));
    }
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return proxy;
  }

  /** `https://127.0.0.1:port`: the server address to give a client. */
  /** Added to each chunk's trip, each way: a distant server. */
  latencyMs = 0;
  /** Added to each chunk from the server alone, its TLS handshake's included: a slow server. */
  serverDelayMs = 0;

  get url(): string {
    return `https://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Connections open through the proxy right now. */
  get open(): number {
    return this.#pairs.size;
  }

  sever(): void {
    this.#severed = true;
    for (const pair of this.#pairs) pair.client.destroy();
  }

  /** Resets every connection open now (a TCP RST to the client), as a peer that crashed or forgot it does. */
  reset(): void {
    for (const pair of this.#pairs) pair.client.resetAndDestroy();
  }

  restore(): void {
    this.#severed = false;
  }

  /** The ALPN protocols a terminating proxy offers new connections from now on, in order of preference. */
  offer(alpnProtocols: readonly string[]): void {
    this.#alpn.offered = alpnProtocols;
  }

  /** Drops every byte on the connections open now, both ways, and closes none of them. */
  silence(): void {
    for (const pair of this.#pairs) pair.silent = true;
  }

  async close(): Promise<void> {
    this.sever();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(client: Socket, dial: () => Socket): void {
    if (this.#severed) {
      client.destroy();
      return;
    }
    this.connections++;
    const pair: Pair = { client, upstream: dial(), silent: false };
    this.#pairs.add(pair);
    for (const [from, to] of [
      [pair.client, pair.upstream],
      [pair.upstream, pair.client],
    ] as const) {
      from.on('data', (chunk: Buffer) => {
        if (pair.silent) return;
        const delayMs = this.latencyMs + (from === pair.upstream ? this.serverDelayMs : 0);
        if (delayMs === 0) to.write(chunk);
        // One delay for every chunk keeps them in order: timers of one duration fire in turn.
        else setTimeout(() => to.write(chunk), delayMs);
      });
      from.on('error', () => to.destroy());
      from.once('close', () => {
        this.#pairs.delete(pair);
        to.destroy();
      });
    }
  }
}
