import type { Readable } from 'node:stream';

/** Answer bodies whose connection a health check watches (HTTP/2 PING). */
const checked = new WeakSet<Readable>();

/**
 * Marks an answer's body as carried by a connection that a health check watches: a path that dies
 * under it fails it within the check's bounds, so its reader need not time it out itself.
 */
export function markHealthChecked(body: Readable): void {
  checked.add(body);
}

/**
 * Whether `body` came on a health-checked connection. A body a wrapping Transport made anew is not:
 * its reader then keeps its own guard.
 */
export function isHealthChecked(body: Readable): boolean {
  return checked.has(body);
}
