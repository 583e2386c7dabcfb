/** The Kubernetes `Status` object the API server answers failed requests with. */
export interface Status {
  readonly kind?: 'Status';
  readonly status?: string;
  readonly message?: string;
  /** A machine-readable reason: `NotFound`, `AlreadyExists`, `Conflict`, `Expired`, `Invalid`... */
  readonly reason?: string;
  readonly code?: number;
  readonly details?: {
    readonly name?: string;
    readonly group?: string;
    readonly kind?: string;
    readonly causes?: readonly {
      readonly reason?: string;
      readonly message?: string;
      readonly field?: string;
    }[];
    readonly retryAfterSeconds?: number;
  };
}

/** A request the API server refused: its HTTP code and its Status (reason, message, causes). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: number;
  readonly reason: string;
  readonly status: Status;

  constructor(code: number, status: Status, request: string) {
    super(`${request}: ${code} ${status.reason ?? ''} ${status.message ?? ''}`.trimEnd());
    this.code = code;
    this.reason = status.reason ?? '';
    this.status = status;
  }
}

/**
 * Builds the ApiError of a failed answer whose body may or may not be a Status. A Retry-After the
 * answer carried goes into `details.retryAfterSeconds` when the body did not say it, as client-go.
 */
export function apiErrorFrom(
  code: number,
  body: string,
  request: string,
  retryAfterSeconds?: number,
): ApiError {
  const status = parseStatus(code, body);
  if (retryAfterSeconds === undefined || status.details?.retryAfterSeconds !== undefined) {
    return new ApiError(code, status, request);
  }
  return new ApiError(code, { ...status, details: { ...status.details, retryAfterSeconds } }, request);
}

/** The ApiError of an ERROR watch event, whose object is a Status. */
export function apiErrorFromStatus(status: Status, request: string): ApiError {
  return new ApiError(status.code ?? 500, status, request);
}

function parseStatus(code: number, body: string): Status {
  try {
    const parsed = JSON.parse(body) as Status;
    if (parsed && parsed.kind === 'Status') return parsed;
  } catch {
    // Not JSON (a proxy's HTML page, an empty body): the code alone says what happened.
  }
  return { kind: 'Status', status: 'Failure', code, message: body.slice(0, 200) };
}

/** Whether `err` is an ApiError with this reason or, when the server gave no reason, this code (as client-go). */
function hasReason(err: unknown, reason: string, code: number): boolean {
  if (!(err instanceof ApiError)) return false;
  return err.reason === reason || (err.reason === '' && err.code === code);
}

/** The object does not exist (404 NotFound). */
export const isNotFound = (err: unknown): boolean => hasReason(err, 'NotFound', 404);
/** The object already exists (409 AlreadyExists). */
export const isAlreadyExists = (err: unknown): boolean => hasReason(err, 'AlreadyExists', 409);
/** The write lost an optimistic-concurrency race: re-read and retry (409 Conflict). */
export const isConflict = (err: unknown): boolean => hasReason(err, 'Conflict', 409);
/** The resource version is too old (410 Gone, or reason Expired): relist. */
export const isGone = (err: unknown): boolean =>
  hasReason(err, 'Gone', 410) || (err instanceof ApiError && err.reason === 'Expired');
/** The caller lacks permission (403 Forbidden). */
export const isForbidden = (err: unknown): boolean => hasReason(err, 'Forbidden', 403);
/** The caller is not authenticated (401 Unauthorized). */
export const isUnauthorized = (err: unknown): boolean => hasReason(err, 'Unauthorized', 401);
/** The object failed validation (422 Invalid). */
export const isInvalid = (err: unknown): boolean => hasReason(err, 'Invalid', 422);
/** The request was malformed (400 BadRequest). */
export const isBadRequest = (err: unknown): boolean => hasReason(err, 'BadRequest', 400);
/** The server could not finish in time (504 Timeout, or 500 ServerTimeout). */
export const isTimeout = (err: unknown): boolean =>
  hasReason(err, 'Timeout', 504) || (err instanceof ApiError && err.reason === 'ServerTimeout');
/** The server is throttling the caller (429 TooManyRequests). */
export const isTooManyRequests = (err: unknown): boolean => hasReason(err, 'TooManyRequests', 429);
/** The server failed (500 InternalError). */
export const isInternalError = (err: unknown): boolean => hasReason(err, 'InternalError', 500);
/** The server is unavailable (503 ServiceUnavailable). */
export const isServiceUnavailable = (err: unknown): boolean => hasReason(err, 'ServiceUnavailable', 503);

/**
 * Resolves to undefined when `promise` fails with NotFound, as controller-runtime's IgnoreNotFound.
 *
 * @example
 * ```ts
 * await ignoreNotFound(client.delete(pod));
 * ```
 */
export async function ignoreNotFound<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
