import type { ClientCertificate } from '../config/rest-config.ts';
import { type HealthCheck, Http2Connection } from './http2-connection.ts';
import { connectToServer, type ServerEndpoint } from './server-socket.ts';

/** What the pool hands a request: an HTTP/2 connection, or word that the server speaks HTTP/1.1 only. */
export type PooledConnection = Http2Connection | 'http/1.1';

/** How many connections one request dials before giving up on a server that closes each at once. */
const MAX_DIALS = 3;
/** The flow-control windows Go's HTTP/2 transport advertises, per stream and per connection. */
const STREAM_WINDOW = 4 << 20;
const CONNECTION_WINDOW = 1 << 30;

/**
 * The HTTP/2 connections to one API server: one carries every request and watch, as client-go's
 * does, and another opens only when the server's SETTINGS_MAX_CONCURRENT_STREAMS is reached (as
 * Go's transport does), or when the one in use was found dead or is going away. One connection
 * is dialled at a time, however many requests wait for it. When the server does not offer h2 in
 * ALPN (some proxies and load balancers), the pool says so and the transport uses HTTP/1.1.
 */
export class Http2Pool {
  readonly #endpoint: Omit<ServerEndpoint, 'clientCertificate'>;
  readonly #health: HealthCheck;
  readonly #connectTimeoutMs: number;
  readonly #connections = new Set<Http2Connection>();
  #cert: ClientCertificate | undefined;
  #dialling: Promise<void> | undefined;
  #http1 = false;

  constructor(
    endpoint: Omit<ServerEndpoint, 'clientCertificate'>,
    health: HealthCheck,
    connectTimeoutMs: number,
  ) {
    this.#endpoint = endpoint;
    this.#health = health;
    this.#connectTimeoutMs = connectTimeoutMs;
  }

  /**
   * A connection with a stream reserved for one request (see {@link Http2Connection.reserve}), for this client certificate. A new certificate
   * (an exec plugin handed one out) closes the connections of the old one, which would go on
   * authenticating as it, as client-go's connection rotation does.
   */
  async acquire(cert: ClientCertificate | undefined, signal: AbortSignal): Promise<PooledConnection> {
    if (this.#cert?.cert !== cert?.cert || this.#cert?.key !== cert?.key) this.#rotate(cert);
    for (let dials = 0; ; dials++) {
      if (this.#http1) return 'http/1.1';
      for (const connection of this.#connections) {
        if (connection.reserve()) return connection;
      }
      if (dials === MAX_DIALS) {
        throw new Error(`connecting to ${this.#endpoint.server.host}: each new connection closed at once`);
      }
      this.#dialling ??= this.#dial(cert).finally(() => (this.#dialling = undefined));
      await abortable(this.#dialling, signal);
    }
  }

  #rotate(cert: ClientCertificate | undefined): void {
    // The first certificate seen is no rotation: nothing is open yet.
    for (const connection of this.#connections) connection.destroy();
    this.#connections.clear();
    this.#cert = cert;
  }

  async #dial(cert: ClientCertificate | undefined): Promise<void> {
    const signal = AbortSignal.timeout(this.#connectTimeoutMs);
    const socket = await connectToServer(
      { ...this.#endpoint, clientCertificate: cert },
      ['h2', 'http/1.1'],
      signal,
    ).catch((err: unknown) => {
      throw signal.aborted
        ? new Error(
            `connecting to ${this.#endpoint.server.host}: no TLS handshake within ${this.#connectTimeoutMs} ms`,
          )
        : err;
    });
    if (socket.alpnProtocol !== 'h2') {
      socket.destroy();
      this.#http1 = true;
      return;
    }
    const http2 = process.getBuiltinModule('node:http2');
    // Go's windows: 4 MiB a stream, 1 GiB the connection. The 64 KiB default makes a large list
    // wait one round trip per 64 KiB, seconds on a distant server.
    const session = http2.connect(this.#endpoint.server.origin, {
      createConnection: () => socket,
      settings: { initialWindowSize: STREAM_WINDOW },
    });
    session.setLocalWindowSize(CONNECTION_WINDOW);
    const connection = new Http2Connection(session, socket, this.#health, () =>
      this.#connections.delete(connection),
    );
    // A connection of a certificate rotated away while it was dialled is not kept.
    if (this.#cert?.cert !== cert?.cert || this.#cert?.key !== cert?.key) connection.destroy();
    else this.#connections.add(connection);
  }
}

/** `promise`, or a rejection with the signal's reason once it aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
