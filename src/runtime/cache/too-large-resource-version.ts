import { ApiError, isTimeout } from '../client/api-error.ts';

/**
 * Whether the API server could not serve a list or watch at a resourceVersion because it has not
 * seen that version yet (an API server behind the one that answered before, as after a restart),
 * as client-go's isTooLargeResourceVersionError: the ResourceVersionTooLarge cause, or, from
 * servers before 1.18.6, a timeout saying so.
 */
export function isTooLargeResourceVersion(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  if (err.status.details?.causes?.some((c) => c.reason === 'ResourceVersionTooLarge')) return true;
  return isTimeout(err) && (err.status.message ?? '').toLowerCase().includes('too large resource version');
}
