/**
 * A request that got no complete answer within the transport's `requestTimeoutMs`: the connection
 * may be dead, or the API server overloaded. Whether a write took effect is unknown.
 */
export class RequestTimeoutError extends Error {
  override readonly name = 'RequestTimeoutError';
  readonly timeoutMs: number;

  constructor(request: string, timeoutMs: number) {
    super(
      `${request}: no answer within ${timeoutMs} ms (the transport's requestTimeoutMs); the connection may be dead or the API server overloaded`,
    );
    this.timeoutMs = timeoutMs;
  }
}

/** The request timed out on the client's side (see {@link RequestTimeoutError}). */
export const isRequestTimeout = (err: unknown): boolean => err instanceof RequestTimeoutError;
