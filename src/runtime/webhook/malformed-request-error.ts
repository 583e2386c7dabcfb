/**
 * A request the webhook cannot read (not JSON, the wrong kind of review, no request in it): it is
 * answered with HTTP 400 and this message, so the API server's log says what was wrong.
 */
export class MalformedRequestError extends Error {
  override readonly name = 'MalformedRequestError';
  /** Default: 400; 405 for a method other than POST, 413 for a body over the size limit. */
  readonly httpCode: 400 | 405 | 413;

  constructor(message: string, httpCode: 400 | 405 | 413 = 400) {
    super(message);
    this.httpCode = httpCode;
  }

  /** The Status reason of `httpCode`, as the API server names it. */
  get reason(): string {
    return REASONS[this.httpCode];
  }
}

const REASONS = { 400: 'BadRequest', 405: 'MethodNotAllowed', 413: 'RequestEntityTooLarge' } as const;
