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

/**
 * True when `err` is, or wraps (through `cause`), a TerminalError. A cycle of causes ends the
 * search, and a `cause` that cannot be read counts as none: deciding a retry must never throw.
 */
export function isTerminalError(err: unknown): boolean {
  const seen = new Set<unknown>();
  try {
    for (let e: unknown = err; e instanceof Error && !seen.has(e); e = e.cause) {
      if (e instanceof TerminalError) return true;
      seen.add(e);
    }
  } catch {
    // A throwing getter or proxy trap along the chain: what was walked so far had no TerminalError.
  }
  return false;
}
