/**
 * A request whose connection to the API server was found dead before the answer came: a
 * health-check ping went unanswered, or the connection broke. A GET meeting one is sent again on
 * a fresh connection; any other request fails with this error, for whether the server did it is
 * unknown: the caller's backoff (a reconcile's requeue) takes it from there.
 */
export class ConnectionLostError extends Error {
  override readonly name = 'ConnectionLostError';

  constructor(request: string, why: string) {
    super(
      `${request}: the connection to the API server was lost before an answer (${why}); whether it was done is unknown, so it was not sent again`,
    );
  }
}

/** The request's connection died under it (see {@link ConnectionLostError}). */
export const isConnectionLost = (err: unknown): boolean => err instanceof ConnectionLostError;
