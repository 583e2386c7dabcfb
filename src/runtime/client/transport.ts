import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { kubernetesTime } from '../api/format-time.ts';
import type { ClientCertificate, RequestCredentials, RestConfig } from '../config/rest-config.ts';
import { restConfigOf, type RestConfigSource } from '../config/rest-config-source.ts';
import { apiErrorFrom } from './api-error.ts';
import { RequestTimeoutError } from './request-timeout-error.ts';
import { clockTimeout } from '../clock/clock-timeout.ts';
import { linkedSignal } from '../clock/linked-signal.ts';
import { resendDelayMs, retryAfterSeconds, retryWaitMs } from './request-retry.ts';
import { countRestRequest } from './rest-client-metrics.ts';
import { markHealthChecked } from './health-checked.ts';
import { sendHttp1 } from './http1-sending.ts';
import { sendHttp2 } from './http2-sending.ts';
import { Http2Connection } from './http2-connection.ts';
import { ServerConnections } from './server-connections.ts';
import type { OutgoingRequest, Sent, ServerAnswer } from './outgoing-request.ts';
import { resolveTransportOptions, type TransportOptions } from './transport-options.ts';

/** One HTTP request to the API server. `path` includes the query string. */
export interface RestRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  /** Serialised as JSON unless it is already a string. */
  readonly body?: unknown;
  /** Default: `application/json`. */
  readonly contentType?: string;
  /** The media types asked for (a metadata-only read asks for PartialObjectMetadata). Default: `application/json`. */
  readonly accept?: string;
  readonly signal?: AbortSignal;
}

/**
 * How the runtime talks to the API server: JSON requests and watch streams. The client and the
 * cache take one as an explicit parameter, so tests can observe (count, delay, fail) requests
 * against the real API server.
 */
export interface Transport {
  /**
   * Sends a request and parses the JSON answer; a non-2xx answer rejects with an ApiError, no
   * answer in time with a RequestTimeoutError.
   */
  request<T>(req: RestRequest): Promise<T>;
  /**
   * Opens a streaming GET (a watch, a list read as it comes): resolves with the answer's body once
   * its status is 200, rejects with an ApiError otherwise. The answer's head must come within
   * `requestTimeoutMs` (the API server sends it at once); the body has no bound but the health
   * of its connection. The body ends as the server ends it, and errors when the connection breaks
   * first; the caller reads it and must destroy it when done. `accept` as {@link RestRequest.accept}.
   */
  stream(path: string, signal: AbortSignal, accept?: string): Promise<Readable>;
}

/**
 * The Transport of a RestConfig (or a client-node KubeConfig). Over https it speaks HTTP/2, as
 * client-go does: one connection carries every request and watch, checked by PING (see
 * {@link Http2Connection}), with a second one only when the server's stream limit is reached. A
 * new connection whose server (or a proxy before it) does not offer h2 carries HTTP/1.1 on
 * keep-alive sockets, and each new socket asks for h2 again (see {@link ServerConnections});
 * `http2: false` keeps it on HTTP/1.1. A kubeconfig's `proxy-url` is tunnelled through either way.
 * client-node's own fetch clients are not used because its Watch aborts every stream after 30 s of
 * silence and hides the Status body of failed requests.
 *
 * Every request but a watch is bounded by `requestTimeoutMs`; a 429 with Retry-After is waited
 * for and sent again (see `TransportOptions`); a GET, a watch included, that meets a dead
 * connection (one that failed its health check, or a kept-alive socket that broke before any
 * answer) goes again on another connection, as Go's transport does, but a slow answer is waited
 * for, never asked for twice; other methods are sent again only when the server provably never
 * processed them (a refused stream, one past a GOAWAY's last), and otherwise fail with a
 * ConnectionLostError, for the server may have done them. The first resend goes at once, later
 * ones after a growing wait. A connection that cannot be made fails the request with its error.
 * Credentials are asked for before each request (a token file is re-read, an exec plugin rerun on
 * expiry) and dropped after a 401.
 *
 * @example
 * ```ts
 * const client = newClient({ transport: transportFor(loadRestConfig(), { requestTimeoutMs: 10_000 }) });
 * ```
 */
export function transportFor(source: RestConfigSource, transportOptions: TransportOptions = {}): Transport {
  const o = resolveTransportOptions(transportOptions);
  const config = restConfigOf(source);
  const server = new URL(config.server);
  const connections = new ServerConnections(
    { config, server },
    {
      http2: o.http2,
      health: { readIdleTimeoutMs: o.readIdleTimeoutMs, pingTimeoutMs: o.pingTimeoutMs },
      connectTimeoutMs: o.requestTimeoutMs,
      idleMs: o.pingTimeoutMs,
    },
  );
  const impersonation = impersonationHeaders(config);

  const headersFor = async (
    headers: OutgoingHttpHeaders,
    signal: AbortSignal,
  ): Promise<{ readonly headers: OutgoingHttpHeaders; readonly credentials: RequestCredentials }> => {
    const credentials = config.credentials ? await config.credentials.get(signal) : NO_CREDENTIALS;
    const withAuth: OutgoingHttpHeaders = { ...headers, ...impersonation };
    if (credentials.authorization) withAuth['authorization'] = credentials.authorization;
    return { headers: withAuth, credentials };
  };

  /** Tells the credentials a 401 came, so the next request gets fresh ones. */
  const answered = (status: number, credentials: RequestCredentials): void => {
    if (status === 401) config.credentials?.rejected(credentials);
  };

  /** One sending, on HTTP/2 when the server speaks it. */
  const send = async (req: OutgoingRequest, cert: ClientCertificate | undefined): Promise<Sent> => {
    const connection = await connections.acquire(cert, req.signal);
    if (!(connection instanceof Http2Connection)) return sendHttp1(server, connection, req);
    const sent = await sendHttp2(server, connection, req);
    if ('res' in sent) markHealthChecked(sent.res.body);
    return sent;
  };

  /**
   * Sends `req` with credentials until it is answered or may not go again, and resolves at the
   * answer's head, waiting between sendings from the second resend on (see `resendDelayMs`). Each
   * dead connection leaves the pool as it fails, so this ends.
   */
  const open = async (req: OutgoingRequest): Promise<ServerAnswer> => {
    for (let retries = 0; ; retries++) {
      const delay = resendDelayMs(retries);
      if (delay > 0) {
        await o.clock.sleep(delay, req.signal);
        req.signal.throwIfAborted();
      }
      const { headers, credentials } = await headersFor(req.headers, req.signal);
      const cert = credentials.clientCertificate ?? config.clientCertificate;
      const sent = await send({ ...req, headers }, cert);
      if ('res' in sent) {
        answered(sent.res.status, credentials);
        return sent.res;
      }
      if (!sent.again || retries >= o.maxRetries) throw sent.err;
    }
  };

  /**
   * Runs `work` with a signal aborted by the caller's and, until `work` is done, after
   * `requestTimeoutMs`, an abort turned into a RequestTimeoutError (the caller's own abort stays
   * what it is). The caller's abort goes on reaching the signal until `release`: a streamed answer
   * is read after `work` returns, and the caller stops it by aborting.
   */
  const withinTimeout = async <T>(
    what: string,
    callerSignal: AbortSignal | undefined,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<{ value: T; release: () => void }> => {
    const expiry = clockTimeout(
      o.clock,
      o.requestTimeoutMs,
      () => new RequestTimeoutError(what, o.requestTimeoutMs),
    );
    const linked = callerSignal ? linkedSignal([callerSignal, expiry.signal]) : undefined;
    const release = (): void => linked?.release();
    try {
      return { value: await work(linked?.signal ?? expiry.signal), release };
    } catch (err) {
      release();
      if (expiry.signal.aborted && !callerSignal?.aborted) throw expiry.signal.reason as Error;
      throw err;
    } finally {
      expiry.clear();
    }
  };

  /** One attempt, answer read whole, within `requestTimeoutMs`. */
  const exchange = async (
    req: RestRequest,
    headers: OutgoingHttpHeaders,
    body: string | undefined,
  ): Promise<Answer> => {
    const { value, release } = await withinTimeout(
      `${req.method} ${req.path}`,
      req.signal,
      async (signal) => {
        const res = await open({ method: req.method, path: req.path, headers, body, signal });
        const text = await readBody(res.body);
        return { status: res.status, headers: res.headers, text };
      },
    );
    release();
    return value;
  };

  return {
    async request<T>(req: RestRequest): Promise<T> {
      const body =
        req.body === undefined
          ? undefined
          : typeof req.body === 'string'
            ? req.body
            : JSON.stringify(req.body, kubernetesTime);
      const headers: OutgoingHttpHeaders = { accept: req.accept ?? 'application/json' };
      if (body !== undefined) {
        headers['content-type'] = req.contentType ?? 'application/json';
        headers['content-length'] = Buffer.byteLength(body);
      }
      for (let retries = 0; ; retries++) {
        const answer = await exchange(req, headers, body);
        countRestRequest(server.host, req.method, answer.status);
        if (answer.status >= 200 && answer.status <= 299) return JSON.parse(answer.text) as T;
        const wait =
          retries < o.maxRetries
            ? retryWaitMs(req.method, answer.status, answer.headers, o.maxRetryAfterMs)
            : undefined;
        if (wait === undefined) {
          const hint = retryAfterSeconds(answer.headers);
          throw apiErrorFrom(answer.status, answer.text, `${req.method} ${req.path}`, hint);
        }
        await o.clock.sleep(wait, req.signal);
        req.signal?.throwIfAborted();
      }
    },

    async stream(path: string, signal: AbortSignal, accept?: string): Promise<Readable> {
      for (let retries = 0; ; retries++) {
        const { value: res, release } = await withinTimeout(`GET ${path}`, signal, (bounded) =>
          open({
            method: 'GET',
            path,
            headers: { accept: accept ?? 'application/json' },
            body: undefined,
            signal: bounded,
          }),
        );
        // The caller's abort ends the stream until the stream has ended.
        if (res.body.destroyed) release();
        else res.body.once('close', release);
        countRestRequest(server.host, 'GET', res.status);
        if (res.status === 200) return res.body;
        const text = await readBody(res.body);
        // Lists and watches wait out a 429 as client-go's rest client does, however long it asks:
        // no reconcile waits on them (maxRetryAfterMs is for those).
        const wait =
          retries < o.maxRetries ? retryWaitMs('GET', res.status, res.headers, Infinity) : undefined;
        if (wait === undefined)
          throw apiErrorFrom(res.status, text, `GET ${path}`, retryAfterSeconds(res.headers));
        await o.clock.sleep(wait, signal);
        signal.throwIfAborted();
      }
    },
  };
}

/** A whole answer. */
interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

const NO_CREDENTIALS: RequestCredentials = {};

function impersonationHeaders(config: RestConfig): OutgoingHttpHeaders {
  const who = config.impersonate;
  if (!who) return {};
  const headers: OutgoingHttpHeaders = {};
  if (who.user) headers['impersonate-user'] = who.user;
  if (who.groups.length > 0) headers['impersonate-group'] = [...who.groups];
  if (who.uid) headers['impersonate-uid'] = who.uid;
  for (const [key, values] of Object.entries(who.extra)) {
    // Header names are case-insensitive, so the key is percent-encoded as client-go encodes it.
    headers[`impersonate-extra-${encodeURIComponent(key)}`] = [...values];
  }
  return headers;
}

async function readBody(res: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
