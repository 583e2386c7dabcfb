/**
 * A request the webhook cannot read (not JSON, the wrong kind of review, no request in it): it is
 * answered with HTTP 400 and this message, so the API server's log says what was wrong.
 */
export class MalformedRequestError extends Error {
  override readonly name = 'MalformedRequestError';
  /** Default: 400; 413 for a body over the size limit. */
  readonly httpCode: number;

  constructor(message: string, httpCode = 400) {
    super(message);
    this.httpCode = httpCode;
  }
}
