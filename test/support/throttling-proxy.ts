import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import {
  constants,
  createSecureServer,
  type Http2SecureServer,
  type Http2ServerRequest,
  type Http2ServerResponse,
} from 'node:http2';
import { Agent, request, type RequestOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { RestConfig } from '../../src/runtime/config/rest-config.ts';
import { CertificateAuthority } from '../../src/runtime/tls/certificate-authority.ts';

/** Headers of one hop only, which a proxy does not pass on (and HTTP/2 refuses). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'host',
  'proxy-connection',
]);

/** One request being forwarded: ended by `throttle`, as a restarting server ends its watches. */
interface Forwarded {
  readonly res: Http2ServerResponse;
  readonly upstream: ReturnType<typeof request>;
}

/**
 * An HTTP proxy before the API server (HTTP/2, or HTTP/1.1 for a client that offers only that)
 * that a test can turn into a 429 storm, as API Priority and Fairness answers an overloaded
 * server: `throttle(seconds)` ends every answer in flight (the watches) and answers every request
 * with 429 and that Retry-After until `release()`. It ends TLS with its own certificate and
 * authenticates upstream with the config's client certificate. `goAwayOnNext` makes it end a
 * connection with a GOAWAY instead, as a server shutting down in error does; `refuseStreams` makes
 * it refuse every HTTP/2 stream, as a server shutting down behind a load balancer may.
 */
export class ThrottlingProxy {
  readonly #server: Http2SecureServer;
  readonly #agent: Agent;
  readonly #inFlight = new Set<Forwarded>();
  readonly #ca: string;
  #retryAfterSeconds: number | undefined;
  #goAway: { readonly code: number; readonly received: boolean } | undefined;
  #refusing = false;
  /** When (performance.now()) each refused stream came, in order. */
  readonly refusedAt: number[] = [];
  /**
   * `METHOD path` of every request the proxy got, in order, with ` 429` when it was turned away,
   * ` GOAWAY` when it was answered with one, and ` REFUSED` when its stream was refused.
   */
  readonly requests: string[] = [];

  private constructor(server: Http2SecureServer, agent: Agent, ca: string) {
    this.#server = server;
    this.#agent = agent;
    this.#ca = ca;
  }

  /** Starts a proxy to the API server of `upstream`, which authenticates by client certificate. */
  static async start(upstream: RestConfig): Promise<ThrottlingProxy> {
    const { clientCertificate, ca } = upstream;
    if (!clientCertificate || !ca)
      throw new Error('the throttling proxy needs a client certificate and a CA');
    const authority = CertificateAuthority.create('throttling-proxy');
    const serving = authority.issue({ commonName: 'proxy', hosts: ['127.0.0.1'], usage: 'server' });
    const server = createSecureServer({ ...serving, allowHTTP1: true });
    const agent = new Agent({ keepAlive: true, ca, ...clientCertificate });
    const proxy = new ThrottlingProxy(server, agent, authority.cert);
    const target = new URL(upstream.server);
    server.on('request', (req, res) => proxy.#handle(req, res, target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** A config for a client of the proxy: its address and CA, no client certificate. */
  configFor(upstream: RestConfig): RestConfig {
    const port = (this.#server.address() as AddressInfo).port;
    return { ...upstream, server: `https://127.0.0.1:${port}`, ca: this.#ca, clientCertificate: undefined };
  }

  /** Ends every answer in flight and answers 429 with `Retry-After: seconds` until `release`. */
  throttle(retryAfterSeconds: number): void {
    this.#retryAfterSeconds = retryAfterSeconds;
    for (const forwarded of this.#inFlight) {
      forwarded.upstream.destroy();
      forwarded.res.end();
    }
  }

  /**
   * Answers the next request with a GOAWAY carrying `code` (an HTTP/2 error code) and forwards
   * nothing of it. Its last stream id is the one before that request's, saying the server never
   * had it, or, with `received`, that request's own, saying the server may have processed it.
   */
  goAwayOnNext(code: number, { received }: { readonly received: boolean }): void {
    this.#goAway = { code, received };
  }

  /** Closes every HTTP/2 stream that comes with REFUSED_STREAM, forwarding nothing, until `release`. */
  refuseStreams(): void {
    this.#refusing = true;
  }

  release(): void {
    this.#retryAfterSeconds = undefined;
    this.#refusing = false;
  }

  async close(): Promise<void> {
    this.throttle(1);
    this.#agent.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #handle(req: Http2ServerRequest, res: Http2ServerResponse, target: URL): void {
    const line = `${req.method} ${req.url}`;
    const goAway = this.#goAway;
    if (goAway !== undefined) {
      this.#goAway = undefined;
      this.requests.push(`${line} GOAWAY`);
      req.resume();
      const { id = 0, session } = req.stream;
      session?.goaway(goAway.code, goAway.received ? id : id - 2);
      return;
    }
    if (this.#refusing) {
      this.requests.push(`${line} REFUSED`);
      this.refusedAt.push(performance.now());
      req.stream.close(constants.NGHTTP2_REFUSED_STREAM);
      return;
    }
    const seconds = this.#retryAfterSeconds;
    if (seconds !== undefined) {
      this.requests.push(`${line} 429`);
      req.resume();
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(seconds) });
      res.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          message: 'too many requests, please try again later',
          reason: 'TooManyRequests',
          details: { retryAfterSeconds: seconds },
          code: 429,
        }),
      );
      return;
    }
    this.requests.push(line);
    const options: RequestOptions = {
      agent: this.#agent,
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: passedOn(req.headers),
    };
    const upstream = request(options, (answer) => {
      res.writeHead(answer.statusCode ?? 502, passedOn(answer.headers));
      answer.pipe(res);
    });
    const forwarded = { res, upstream };
    this.#inFlight.add(forwarded);
    const done = (): void => {
      this.#inFlight.delete(forwarded);
    };
    res.once('close', () => {
      done();
      upstream.destroy();
    });
    upstream.on('error', () => {
      done();
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  }
}

/** The end-to-end headers, without HTTP/2's pseudo-headers. */
function passedOn(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers))
    if (!name.startsWith(':') && !HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
  return out;
}
