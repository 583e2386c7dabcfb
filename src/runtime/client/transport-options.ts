import { type Clock, systemClock } from '../clock/clock.ts';

/** How {@link transportFor} bounds and retries requests. */
export interface TransportOptions {
  /**
   * How long one attempt of a request may take, from sending it to the last byte of the answer;
   * past it the request fails with a RequestTimeoutError. A watch is bounded by it only until its
   * response headers come: its events have their own deadline, set by the reflector. Default: 30 000 ms.
   *
   * client-go sets none; without one, a request sent on a kept-alive connection whose peer died
   * without a reset (a node lost, a NAT entry dropped) waits for ever. A healthy API server answers
   * in milliseconds and ends requests itself after 60 s (its --request-timeout); 30 s is far past
   * any healthy answer, and gives up on a dead connection while the caller's backoff still helps.
   */
  readonly requestTimeoutMs?: number;
  /**
   * How many times a request is sent again after an answer asking to retry (429 Too Many
   * Requests with Retry-After), as client-go's rest client. It also bounds how many times one
   * request is sent again without an answer: a GET whose connection died, any request the server
   * provably never had (a refused stream, one past a GOAWAY's last). The first such resend goes at
   * once, the next after 1 s, 2 s, 4 s... as in Go's HTTP/2 transport, all within the request's
   * `requestTimeoutMs`. Default: 10.
   */
  readonly maxRetries?: number;
  /**
   * The longest Retry-After a request waits for. A longer one fails the request at once with its
   * 429 ApiError (whose `status.details.retryAfterSeconds` tells the server's wish), so that one
   * answer cannot hold a reconcile for minutes; the caller's backoff takes it from there. Lists and
   * watches (`stream`), which no reconcile waits on, wait whatever the server asks, as client-go's
   * do. Default: 10 000 ms.
   */
  readonly maxRetryAfterMs?: number;
  /**
   * Whether to offer HTTP/2 to an https API server (ALPN), carrying every request and watch on one
   * multiplexed connection checked by PING, as client-go does. A connection whose server or proxy
   * does not offer h2 carries HTTP/1.1 whatever this says, and each new one asks again, as Go's
   * transport does. Default: true.
   */
  readonly http2?: boolean;
  /**
   * How long an HTTP/2 connection may read nothing before it is sent a PING (client-go's
   * ReadIdleTimeout, 30 s there). A watch on a quiet kind reads nothing for minutes, so this is
   * what notices a path that died without a reset; a PING is 17 bytes each way. Default: 10 000 ms.
   */
  readonly readIdleTimeoutMs?: number;
  /**
   * How long a PING may go unanswered before its connection is closed as dead, failing every
   * stream on it (client-go's PingTimeout, 15 s there). With `readIdleTimeoutMs`, it bounds how
   * long a silently dead path goes unnoticed: 15 s by default, against client-go's 45 s. Over
   * HTTP/1.1, which has no PING, a socket idle this long in the pool is closed rather than reused,
   * so that a request goes out on a socket whose path died unnoticed only if it died in that time;
   * the request then waits for its answer until `requestTimeoutMs`, as in Go's transport, for a
   * dead path cannot be told from a slow server there. Default: 5 000 ms.
   */
  readonly pingTimeoutMs?: number;
  /** Times each attempt and the waits between retries. Default: the system clock. */
  readonly clock?: Clock;
}

/** TransportOptions with every default applied. */
export type ResolvedTransportOptions = Required<TransportOptions>;

/** The one place the defaults of {@link TransportOptions} are applied. */
export function resolveTransportOptions(options: TransportOptions = {}): ResolvedTransportOptions {
  return {
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    maxRetries: options.maxRetries ?? 10,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 10_000,
    http2: options.http2 ?? true,
    readIdleTimeoutMs: options.readIdleTimeoutMs ?? 10_000,
    pingTimeoutMs: options.pingTimeoutMs ?? 5_000,
    clock: options.clock ?? systemClock,
  };
}
