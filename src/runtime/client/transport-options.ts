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
   * Requests with Retry-After), as client-go's rest client. It also bounds how many dead
   * kept-alive sockets one GET goes past: each leaves the pool as it fails, and a GET is sent
   * again only while its socket was a reused one, so a fresh connection's failure ends it.
   * Default: 10.
   */
  readonly maxRetries?: number;
  /**
   * The longest Retry-After waited for. A longer one fails the request at once with its 429
   * ApiError (whose `status.details.retryAfterSeconds` tells the server's wish), so that one answer
   * cannot hold a reconcile for minutes; the caller's backoff takes it from there. Default: 10 000 ms.
   */
  readonly maxRetryAfterMs?: number;
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
    clock: options.clock ?? systemClock,
  };
}
