import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy to `https://host:port` on a free loopback port that a test can sever: `sever()`
 * cuts every connection through it and refuses new ones until `restore()`, as a network partition
 * between a replica and the API server does. TLS passes through untouched.
 */
export class SeverableProxy {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #severed = false;

  private constructor(server: Server) {
    this.#server = server;
  }

  /** Starts a proxy to the server of `url`. */
  static async start(url: string): Promise<SeverableProxy> {
    const target = new URL(url);
    const server = createServer();
    const proxy = new SeverableProxy(server);
    server.on('connection', (socket) => proxy.#accept(socket, target.hostname, Number(target.port)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** `https://127.0.0.1:port`: the server address to give a client. */
  get url(): string {
    return `https://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  sever(): void {
    this.#severed = true;
    for (const socket of this.#sockets) socket.destroy();
  }

  restore(): void {
    this.#severed = false;
  }

  async close(): Promise<void> {
    this.sever();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(client: Socket, host: string, port: number): void {
    if (this.#severed) {
      client.destroy();
      return;
    }
    const upstream = connect(port, host);
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
      socket.pipe(other);
    }
  }
}
