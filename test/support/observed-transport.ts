import type { Readable } from 'node:stream';
import type { RestRequest, Transport } from '../../src/runtime/client/transport.ts';

/**
 * A Transport that counts the requests going through it and can hold watches off: `disconnect()`
 * breaks the open watch streams and makes new ones wait until `reconnect()`. Requests still reach
 * the real API server; nothing is answered here.
 */
export class ObservedTransport implements Transport {
  readonly #inner: Transport;
  readonly #open = new Set<Readable>();
  #gate: Promise<void> | undefined;
  #openGate: (() => void) | undefined;
  /** Watch requests opened, by path without query. */
  readonly watches = new Map<string, number>();
  /** GET requests without `watch` (read whole or streamed), by path without query. */
  readonly lists = new Map<string, number>();
  /** The query of each of those GET requests, in order, by path without query. */
  readonly listQueries = new Map<string, URLSearchParams[]>();
  /** POST requests (creates, reviews), by path without query. */
  readonly posts = new Map<string, number>();

  constructor(inner: Transport) {
    this.#inner = inner;
  }

  request<T>(req: RestRequest): Promise<T> {
    if (req.method === 'GET') this.#listed(req.path);
    if (req.method === 'POST') bump(this.posts, req.path);
    return this.#inner.request<T>(req);
  }

  async stream(path: string, signal: AbortSignal, accept?: string): Promise<Readable> {
    if (!isWatch(path)) {
      this.#listed(path);
      return this.#inner.stream(path, signal, accept);
    }
    while (this.#gate) await this.#gate;
    bump(this.watches, path);
    const res = await this.#inner.stream(path, signal, accept);
    // Disconnected while this watch was being opened: it must not deliver anything either.
    if (this.#gate) {
      res.destroy();
      throw new Error('disconnected by the test');
    }
    this.#open.add(res);
    res.once('close', () => this.#open.delete(res));
    return res;
  }

  #listed(path: string): void {
    bump(this.lists, path);
    const [bare = path, query = ''] = path.split('?');
    const queries = this.listQueries.get(bare) ?? [];
    queries.push(new URLSearchParams(query));
    this.listQueries.set(bare, queries);
  }

  /** Streams open right now. */
  get openStreams(): number {
    return this.#open.size;
  }

  disconnect(): void {
    this.#gate ??= new Promise((resolve) => (this.#openGate = resolve));
    for (const res of this.#open) res.destroy(new Error('disconnected by the test'));
  }

  reconnect(): void {
    const open = this.#openGate;
    this.#gate = undefined;
    this.#openGate = undefined;
    open?.();
  }
}

function isWatch(path: string): boolean {
  const query = path.split('?')[1] ?? '';
  return new URLSearchParams(query).has('watch');
}

function bump(counts: Map<string, number>, path: string): void {
  const bare = path.split('?')[0] ?? path;
  counts.set(bare, (counts.get(bare) ?? 0) + 1);
}
