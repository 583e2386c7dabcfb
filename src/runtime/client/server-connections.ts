import type { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { sharedWork, untilAborted } from '../clock/shared-work.ts';
import type { ClientCertificate } from '../config/rest-config.ts';
import { nodeHttp } from '../server/node-http.ts';
import { type HealthCheck, Http2Connection } from './http2-connection.ts';
import { connectToServer, KEEP_ALIVE_IDLE_MS, probeWhenIdle, type ServerEndpoint } from './server-socket.ts';
import { SpareSocket } from './spare-socket.ts';

/**
 * What a request goes on: an HTTP/2 connection with a stream reserved for it, or the keep-alive
 * agent whose sockets carry HTTP/1.1.
 */
export type ServerConnection = Http2Connection | HttpAgent;

/** How {@link ServerConnections} connects. */
export interface ServerConnectionOptions {
  /** Whether to offer h2 in ALPN (https only). */
  readonly http2: boolean;
  readonly health: HealthCheck;
  /** The longest a TLS handshake may take. */
  readonly connectTimeoutMs: number;
  /** How long an HTTP/1.1 socket may sit idle in the pool before it is closed. */
  readonly idleMs: number;
}

/** How many connections one request dials before giving up on a server that closes each at once. */
const MAX_DIALS = 3;
/** The flow-control windows Go's HTTP/2 transport advertises, per stream and per connection. */
const STREAM_WINDOW = 4 << 20;
const CONNECTION_WINDOW = 1 << 30;

/**
 * The connections to one API server. Over https one HTTP/2 connection carries every request and
 * watch, as client-go's does; another opens only when the server's SETTINGS_MAX_CONCURRENT_STREAMS
 * is reached (as Go's transport does), or when the one in use was found dead or is going away.
 * One connection is dialled at a time, however many requests wait for it.
 *
 * ALPN is asked per connection, as in Go: each new connection offers h2. One that gets HTTP/1.1
 * (a proxy or load balancer that speaks nothing else) carries the request at hand, then joins a
 * keep-alive pool that later requests use without a new dial; when that pool needs a new socket,
 * it offers h2 again, and a server that speaks it once more gets its requests on HTTP/2 again.
 *
 * A new client certificate (an exec plugin handed one out) closes the connections of the old one,
 * which would go on authenticating as it, as client-go's connection rotation does; every later
 * dial uses the new one, a request that asked for its credentials before the rotation included.
 */
export class ServerConnections {
  readonly #endpoint: Omit<ServerEndpoint, 'clientCertificate'>;
  readonly #options: ServerConnectionOptions;
  readonly #connections = new Set<Http2Connection>();
  #cert: ClientCertificate | undefined;
  #dialling: Promise<void> | undefined;
  /** The last connection dialled spoke HTTP/1.1: requests go on the agent's sockets. */
  #http1 = false;
  #agent: HttpAgent | undefined;
  /** A socket dialled that spoke HTTP/1.1, waiting for the agent to take it for the request at hand. */
  #spare: SpareSocket | undefined;

  constructor(endpoint: Omit<ServerEndpoint, 'clientCertificate'>, options: ServerConnectionOptions) {
    this.#endpoint = endpoint;
    this.#options = { ...options, http2: options.http2 && endpoint.server.protocol === 'https:' };
  }

  /** A connection for one request authenticated by `cert` (see {@link Http2Connection.reserve}). */
  async acquire(cert: ClientCertificate | undefined, signal: AbortSignal): Promise<ServerConnection> {
    // An exec plugin rerun gives a new object with the same certificate: only a change rotates.
    if (this.#cert?.cert !== cert?.cert || this.#cert?.key !== cert?.key) this.#rotate(cert);
    for (let dials = 0; ; dials++) {
      if (!this.#options.http2) return this.#currentAgent();
      for (const connection of this.#connections) {
        if (connection.reserve()) return connection;
      }
      if (this.#http1) return this.#currentAgent();
      if (dials === MAX_DIALS) {
        throw new Error(`connecting to ${this.#endpoint.server.host}: each new connection closed at once`);
      }
      // As in Go's transport, a request already given up dials nothing; one that gives up while
      // the dial goes on leaves it to the others, and its failure to whoever still waits.
      signal.throwIfAborted();
      this.#dialling ??= sharedWork(this.#dial().finally(() => (this.#dialling = undefined)));
      await untilAborted(this.#dialling, signal);
    }
  }

  #rotate(cert: ClientCertificate | undefined): void {
    // The first certificate seen is no rotation: nothing is open yet.
    for (const connection of this.#connections) connection.destroy();
    this.#connections.clear();
    this.#agent?.destroy();
    this.#agent = undefined;
    this.#spare?.destroy();
    this.#spare = undefined;
    this.#cert = cert;
  }

  /** Dials for the requests waiting: an HTTP/2 connection, or a socket the agent takes. */
  async #dial(): Promise<void> {
    const cert = this.#cert;
    const socket = await this.#connect(cert);
    // Dialled with a certificate rotated away meanwhile: the waiting requests dial again.
    if (cert !== this.#cert) socket.destroy();
    else if (socket.alpnProtocol === 'h2') this.#adopt(socket);
    else this.#keepSpare(socket);
  }

  async #connect(cert: ClientCertificate | undefined): Promise<TLSSocket> {
    const signal = AbortSignal.timeout(this.#options.connectTimeoutMs);
    const alpn = this.#options.http2 ? ['h2', 'http/1.1'] : ['http/1.1'];
    return connectToServer({ ...this.#endpoint, clientCertificate: cert }, alpn, signal).catch(
      (err: unknown) => {
        throw signal.aborted
          ? new Error(
              `connecting to ${this.#endpoint.server.host}: no TLS handshake within ${this.#options.connectTimeoutMs} ms`,
            )
          : err;
      },
    );
  }

  #adopt(socket: TLSSocket): void {
    const http2 = process.getBuiltinModule('node:http2');
    // Go's windows: 4 MiB a stream, 1 GiB the connection. The 64 KiB default makes a large list
    // wait one round trip per 64 KiB, seconds on a distant server.
    const session = http2.connect(this.#endpoint.server.origin, {
      createConnection: () => socket,
      settings: { initialWindowSize: STREAM_WINDOW },
    });
    session.setLocalWindowSize(CONNECTION_WINDOW);
    const connection = new Http2Connection(session, socket, this.#options.health, () =>
      this.#connections.delete(connection),
    );
    this.#connections.add(connection);
    this.#http1 = false;
  }

  /** Keeps an HTTP/1.1 socket for the agent's next new socket, for as long as one may sit idle. */
  #keepSpare(socket: TLSSocket): void {
    this.#http1 = true;
    this.#spare?.destroy();
    this.#spare = new SpareSocket(socket, this.#options.idleMs);
  }

  /** The keep-alive agent of the current certificate. */
  #currentAgent(): HttpAgent {
    this.#agent ??= this.#newAgent(this.#cert);
    return this.#agent;
  }

  /**
   * A socket idle in the pool for `idleMs` is closed: the longer one sits unused, the likelier its
   * path has died unnoticed. A socket's TCP keep-alive is Go's (see {@link probeWhenIdle}), which
   * Node's agent would set back to its own each time the socket joins the pool.
   */
  #newAgent(cert: ClientCertificate | undefined): HttpAgent {
    const options = {
      keepAlive: true,
      keepAliveMsecs: KEEP_ALIVE_IDLE_MS,
      timeout: this.#options.idleMs,
    };
    if (this.#endpoint.server.protocol !== 'https:') {
      // A proxy-url is applied; HTTPS_PROXY and NO_PROXY are not: Node's reading of them differs
      // from Go's (it proxies loopback, and ignores CIDRs in NO_PROXY), which would send in-cluster
      // and envtest traffic to a proxy that client-go would bypass.
      const proxyUrl = this.#endpoint.config.proxyUrl;
      return probingWhenPooled(
        new nodeHttp.Agent({ ...options, ...(proxyUrl ? { proxyEnv: { HTTP_PROXY: proxyUrl } } : {}) }),
      );
    }
    const agent = probingWhenPooled(new HttpsAgent(options));
    agent.createConnection = (_options, done): undefined => {
      this.#socketFor(agent, cert).then(
        (socket) => done?.(null, socket),
        // Node reads no socket when an error is given.
        (err: unknown) => done?.(err instanceof Error ? err : new Error(String(err)), NO_SOCKET),
      );
      return undefined;
    };
    return agent;
  }

  /**
   * A new socket for `agent`'s next request: the spare one dialled for it, or a new connection,
   * which asks for h2 again. A server that chose h2 gets the connection into the HTTP/2 pool (unless
   * a usable one is there), and the request fails with Http2OfferedError to go on HTTP/2: nothing of
   * it was sent.
   */
  async #socketFor(agent: HttpAgent, cert: ClientCertificate | undefined): Promise<Duplex> {
    const spare = this.#spare?.take();
    this.#spare = undefined;
    const socket = spare ?? (await this.#connect(cert));
    if (socket.alpnProtocol === 'h2') {
      const usable = [...this.#connections].some((connection) => connection.usable);
      if (agent !== this.#agent || usable) socket.destroy();
      else this.#adopt(socket);
      throw new Http2OfferedError(this.#endpoint.server.host);
    }
    return socket;
  }
}

/** The server chose h2 for a new socket meant for HTTP/1.1: the request goes on HTTP/2, never sent. */
export class Http2OfferedError extends Error {
  override readonly name = 'Http2OfferedError';

  constructor(host: string) {
    super(`${host} speaks HTTP/2 again: the request goes there`);
  }
}

const NO_SOCKET = undefined as unknown as Duplex;

/** `agent`, its keep-alive set back to {@link probeWhenIdle}'s after Node's agent sets its own. */
function probingWhenPooled<A extends HttpAgent>(agent: A): A {
  const keepSocketAlive = agent.keepSocketAlive.bind(agent);
  agent.keepSocketAlive = (socket) => {
    const kept = keepSocketAlive(socket);
    if (socket instanceof Socket) probeWhenIdle(socket);
    return kept;
  };
  return agent;
}
