import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/**
 * An HTTP proxy that opens CONNECT tunnels, as a corporate proxy in a kubeconfig's `proxy-url`
 * does, counting them. Bytes pass through the tunnel untouched (TLS and ALPN go end to end).
 */
export class ConnectProxy {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  /** The `host:port` of each tunnel opened, in order. */
  readonly tunnels: string[] = [];

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<ConnectProxy> {
    const server = createServer((_req, res) => res.writeHead(405).end());
    const proxy = new ConnectProxy(server);
    server.on('connect', (req, client: Socket, head: Buffer) => proxy.#tunnel(req.url ?? '', client, head));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** `http://127.0.0.1:port`: the proxy-url to give a client. */
  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #tunnel(authority: string, client: Socket, head: Buffer): void {
    this.tunnels.push(authority);
    const { hostname, port } = new URL(`http://${authority}`);
    const upstream = connect(Number(port), hostname.replace(/^\[(.*)\]$/, '$1'), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    for (const [socket, other] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.#sockets.add(socket);
      socket.on('error', () => other.destroy());
      socket.once('close', () => {
        this.#sockets.delete(socket);
        other.destroy();
      });
    }
  }
}
