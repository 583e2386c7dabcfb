import type { IncomingHttpHeaders } from 'node:http';

/**
 * Methods sent again after a failure that may have reached the server, as client-go retries GET
 * alone: a write sent twice may be done twice (a POST creating two Events, say).
 */
const IDEMPOTENT: ReadonlySet<string> = new Set(['GET']);

/** Whether a request of this method may be sent again when its first sending may have been seen. */
export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method);
}

/** The seconds of a Retry-After header, when it is a whole number of them (as client-go reads it). */
export function retryAfterSeconds(headers: IncomingHttpHeaders): number | undefined {
  const value = headers['retry-after']?.trim();
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/**
 * How long to wait before sending a request again after this answer, or undefined to fail with
 * it. A 429 with Retry-After is retried for every method: the server turned it away before doing
 * anything. A 5xx with Retry-After is retried for GET alone, since a write may have been done
 * before the failure (client-go retries writes there too; we do not send one twice unasked).
 * A wait longer than `maxMs` is not taken.
 */
export function retryWaitMs(
  method: string,
  status: number,
  headers: IncomingHttpHeaders,
  maxMs: number,
): number | undefined {
  if (status !== 429 && !(status >= 500 && isIdempotent(method))) return undefined;
  const seconds = retryAfterSeconds(headers);
  if (seconds === undefined || seconds * 1000 > maxMs) return undefined;
  return seconds * 1000;
}

/** Go's HTTP/2 transport waits no longer than this between two sendings of one request. */
const MAX_RESEND_DELAY_MS = 32_000;

/**
 * How long to wait before sending a request again that was sent `sendings` times already, each
 * without an answer: a dead connection, a refused stream, a GOAWAY. As Go's HTTP/2 transport: no
 * wait after the first sending, for a request whose connection died goes at once on a fresh one,
 * then 1 s, 2 s, 4 s... up to 32 s, each with up to 10 % more at random, so that a server refusing
 * every request (one shutting down behind a load balancer) is not sent them all within
 * milliseconds, nor by many clients in step. The request's deadline bounds the whole.
 */
export function resendDelayMs(sendings: number): number {
  if (sendings < 2) return 0;
  const delay = Math.min(1000 * 2 ** (sendings - 2), MAX_RESEND_DELAY_MS);
  return delay + delay * 0.1 * Math.random();
}

/** Socket errors of a connection that broke: reset, closed under a write, or found dead by TCP keep-alive. */
const BROKEN: ReadonlySet<unknown> = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

/**
 * Whether `err` says the connection broke under a request (Node says ECONNRESET, "socket hang
 * up", EPIPE, or ETIMEDOUT when TCP keep-alive probes went unanswered).
 */
export function isBrokenConnection(err: unknown): boolean {
  return typeof err === 'object' && err !== null && BROKEN.has((err as { code?: unknown }).code);
}

/**
 * A failure of a reused kept-alive socket before any answer came: the server had closed it while
 * it sat in the pool, or its connection broke. Go's transport sends a GET again then
 * (transportReadFromServerError, errServerClosedIdle). A fresh connection failing the same way is
 * the server's trouble, not a stale socket.
 */
export function isStaleConnection(err: unknown, reusedSocket: boolean): boolean {
  return reusedSocket && isBrokenConnection(err);
}
