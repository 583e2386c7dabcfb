/**
 * An error that retrying cannot fix (an invalid spec, say): the controller logs and counts it but
 * does not requeue the request, as controller-runtime's `reconcile.TerminalError`.
 */
export class TerminalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TerminalError';
  }
}

/** True when `err` is, or wraps (through `cause`), a TerminalError. */
export function isTerminalError(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof TerminalError) return true;
  }
  return false;
}
