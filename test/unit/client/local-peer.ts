import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';

/** What a peer's handler is told of a request beside the request itself. */
export interface PeerRequest {
  /** 1 for the first request the peer received, and so on. */
  readonly number: number;
  /** 1 for the first request on this connection, and so on: above 1, the client kept it alive. */
  readonly onConnection: number;
  readonly body: string;
}

export type PeerHandler = (req: IncomingMessage, res: ServerResponse, peer: PeerRequest) => void;

/**
 * A local HTTP server the test controls, standing where the API server would: a peer of the
 * transport, answering (or not) as each test says. `kubeConfig` points at it.
 */
export class LocalPeer {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #perSocket = new WeakMap<Socket, number>();
  requests = 0;
  connections = 0;
  kubeConfig = new KubeConfig();

  private constructor(handler: PeerHandler) {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const onConnection = (this.#perSocket.get(req.socket) ?? 0) + 1;
        this.#perSocket.set(req.socket, onConnection);
        const body = Buffer.concat(chunks).toString('utf8');
        handler(req, res, { number: ++this.requests, onConnection, body });
      });
    });
    this.#server.on('connection', (socket) => {
      this.connections++;
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  static async start(handler: PeerHandler): Promise<LocalPeer> {
    const peer = new LocalPeer(handler);
    await new Promise<void>((resolve) => peer.#server.listen(0, '127.0.0.1', resolve));
    const { port } = peer.#server.address() as AddressInfo;
    peer.kubeConfig.loadFromOptions({
      clusters: [{ name: 'peer', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
      users: [{ name: 'peer' }],
      contexts: [{ name: 'peer', cluster: 'peer', user: 'peer' }],
      currentContext: 'peer',
    });
    return peer;
  }

  /** Stops listening and breaks every connection, answered or not. */
  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** Answers `code` with a JSON body and the given headers. */
export function answer(
  res: ServerResponse,
  code: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(code, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Resolves once `check` holds, looking again at each turn of the event loop (no timing involved). */
export async function until(check: () => boolean, what: string): Promise<void> {
  for (let turns = 0; !check(); turns++) {
    if (turns > 100_000) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
