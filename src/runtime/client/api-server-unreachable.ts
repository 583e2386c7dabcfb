import { ApiError } from './api-error.ts';
import { ConnectionLostError } from './connection-lost-error.ts';
import { RequestTimeoutError } from './request-timeout-error.ts';

/** Socket errors of a server not there yet, or not reachable: nothing was answered. */
const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/**
 * Whether `err` says the API server could not be reached or is not serving yet (a connection
 * refused or lost, no answer in time, a 5xx or 429 while it starts up), rather than that it
 * refused the request: what a manager started before its control plane waits out.
 */
export function isApiServerUnreachable(err: unknown): boolean {
  if (err instanceof RequestTimeoutError || err instanceof ConnectionLostError) return true;
  if (err instanceof ApiError) return err.code >= 500 || err.code === 429;
  for (let cause: unknown = err; typeof cause === 'object' && cause !== null;) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}
