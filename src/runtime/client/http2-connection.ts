import type { ClientHttp2Session, ClientHttp2Stream, OutgoingHttpHeaders } from 'node:http2';
import type { TLSSocket } from 'node:tls';

/** How a connection is checked for life: see `TransportOptions`. */
export interface HealthCheck {
  readonly readIdleTimeoutMs: number;
  readonly pingTimeoutMs: number;
}

/**
 * Streams a connection is assumed to allow before the server's SETTINGS say how many, as Go's
 * HTTP/2 transport assumes.
 */
const ASSUMED_MAX_STREAMS = 100;

/** HTTP/2's NO_ERROR: a GOAWAY of a server shutting down gracefully. */
const NO_ERROR = 0;

/** A timer this late was held by a blocked event loop, not by a silent connection. */
const LATE_TIMER_MS = 100;

/** A request on a connection that has read nothing for this long pings it. */
const QUIET_BEFORE_PING_MS = 1000;

/**
 * One HTTP/2 connection to the API server, carrying many requests and watches at once, and
 * checked for life as Go's HTTP/2 transport does for client-go: when nothing has been read for
 * `readIdleTimeoutMs` it sends a PING, and a PING unanswered within `pingTimeoutMs` closes the
 * connection, failing every stream on it at once (a watch too), so that their callers go on over
 * a fresh one. That is what notices a path that went silent without a reset (a NAT or conntrack
 * entry dropped, a load balancer failed over), which TCP alone notices only after many minutes.
 *
 * Unlike Go, a request sent on a connection that has read nothing since a previous request at
 * least a second before pings it too, and then fails within about `pingTimeoutMs` if the
 * connection died quietly. A connection that read something since (an answer, a watch event, a
 * ping's ack) is not pinged by the request: a write on it fails within the health check's bound,
 * `readIdleTimeoutMs` after the last read plus `pingTimeoutMs`, as in Go.
 */
export class Http2Connection {
  readonly #session: ClientHttp2Session;
  readonly #socket: TLSSocket;
  readonly #health: HealthCheck;
  readonly #timer: NodeJS.Timeout;
  #active = 0;
  #bytesAtCheck: number;
  /** The bytes read when a request last looked, and when it looked. */
  #bytesSeen: number;
  #seenAt = performance.now();
  #pinging = false;
  #settled = false;
  #draining = false;
  /** Why the connection was closed as dead, once it was. */
  #lost: string | undefined;
  /** What the server's GOAWAY said, once one came: its error code and the last stream it took. */
  #goAway: { readonly code: number; readonly lastStreamId: number } | undefined;

  constructor(session: ClientHttp2Session, socket: TLSSocket, health: HealthCheck, onClose: () => void) {
    this.#session = session;
    this.#socket = socket;
    this.#health = health;
    this.#bytesAtCheck = socket.bytesRead;
    this.#bytesSeen = this.#bytesAtCheck;
    session.on('error', () => undefined);
    session.once('remoteSettings', () => (this.#settled = true));
    session.on('goaway', (code: number, lastStreamId: number) => {
      this.#draining = true;
      // A second GOAWAY may lower the last stream; an error code, once given, stands (as Go reads them).
      this.#goAway = {
        code: this.#goAway?.code || code,
        lastStreamId: Math.min(lastStreamId, this.#goAway?.lastStreamId ?? lastStreamId),
      };
    });
    session.once('close', () => {
      clearInterval(this.#timer);
      onClose();
    });
    // Checking at half the idle time pings at most `readIdleTimeoutMs` after the last read.
    this.#timer = setInterval(() => this.#check(), Math.max(1, health.readIdleTimeoutMs / 2)).unref();
    // An idle connection must not keep the process alive; a request does, while it lasts.
    session.unref();
  }

  /** Whether new requests may go on this connection. */
  get usable(): boolean {
    return !this.#draining && this.#lost === undefined && !this.#session.closed && !this.#session.destroyed;
  }

  /**
   * Takes one of the streams the server allows at once (its SETTINGS_MAX_CONCURRENT_STREAMS) for
   * a request about to be sent, or says there is none. Taken before the request is made, so that
   * requests acquiring at once cannot all count the same free stream.
   */
  reserve(): boolean {
    const max = this.#settled ? this.#session.remoteSettings.maxConcurrentStreams : ASSUMED_MAX_STREAMS;
    if (!this.usable || this.#active >= (max ?? ASSUMED_MAX_STREAMS)) return false;
    if (this.#active++ === 0) this.#session.ref();
    return true;
  }

  /** Why it was closed as dead, if it was: a failed health check, or a connection that broke. */
  get lost(): string | undefined {
    return this.#lost ?? (this.#session.destroyed ? 'the connection closed' : undefined);
  }

  /**
   * Whether the server said it never had `stream`: its GOAWAY's last stream is a lower one, so the
   * request may go again whatever its method, as in Go's transport. Not the connection's first
   * stream after a GOAWAY with an error code: a server that fails a fresh connection so would
   * likely fail the next one too (Go's rule).
   */
  neverHad(stream: ClientHttp2Stream): boolean {
    const goAway = this.#goAway;
    const id = stream.id;
    if (goAway === undefined || id === undefined || id <= goAway.lastStreamId) return false;
    return id !== 1 || goAway.code === NO_ERROR;
  }

  /**
   * Opens a stream for one request, on a stream {@link reserve}d for it. Throws when the
   * connection no longer takes requests (the request was then never sent).
   */
  request(headers: OutgoingHttpHeaders, endStream: boolean, signal: AbortSignal): ClientHttp2Stream {
    const read = this.#socket.bytesRead;
    const now = performance.now();
    if (read !== this.#bytesSeen) {
      this.#bytesSeen = read;
      this.#seenAt = now;
    } else if (now - this.#seenAt >= QUIET_BEFORE_PING_MS) this.#ping();
    let stream: ClientHttp2Stream;
    try {
      stream = this.#session.request(headers, { endStream, signal });
    } catch (err) {
      this.#release();
      throw err;
    }
    stream.once('close', () => this.#release());
    return stream;
  }

  #release(): void {
    if (--this.#active === 0 && !this.#session.destroyed) this.#session.unref();
  }

  /** Closes it at once, failing what is on it. */
  destroy(): void {
    this.#session.destroy();
  }

  #check(): void {
    const read = this.#socket.bytesRead;
    if (read === this.#bytesAtCheck) this.#ping();
    this.#bytesAtCheck = read;
  }

  #ping(): void {
    // A connection going away still carries its watches until they end: it is checked as long as
    // it is open, as Go's transport does.
    if (this.#pinging || this.#lost !== undefined || this.#session.destroyed) return;
    this.#pinging = true;
    let acked = false;
    const judge = (armedAt: number): void => {
      // A timer that fired late means the loop was blocked: the ack may be unread on the socket,
      // for timers run before the poll phase reads it. The ack gets its time with the loop free.
      if (performance.now() - armedAt > this.#health.pingTimeoutMs + LATE_TIMER_MS) {
        timeout = arm();
        return;
      }
      setImmediate(() => {
        if (!acked) this.#lose(`no answer to a health-check ping within ${this.#health.pingTimeoutMs} ms`);
      });
    };
    const arm = (): NodeJS.Timeout => {
      const armedAt = performance.now();
      return setTimeout(() => judge(armedAt), this.#health.pingTimeoutMs).unref();
    };
    let timeout = arm();
    const sent = this.#session.ping((err) => {
      acked = true;
      clearTimeout(timeout);
      this.#pinging = false;
      if (err) this.#lose(`its health-check ping failed: ${err.message}`);
    });
    if (!sent) {
      clearTimeout(timeout);
      this.#pinging = false;
    }
  }

  #lose(why: string): void {
    if (this.#lost !== undefined || this.#session.destroyed) return;
    this.#lost = why;
    this.#session.destroy(new Error(`connection lost: ${why}`));
  }
}
