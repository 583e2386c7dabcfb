import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

/**
 * A request as one sending puts it on a connection: its credentials in its headers, its body
 * serialised. Sent again as it is when a sending may be repeated.
 */
export interface OutgoingRequest {
  readonly method: string;
  /** The path below the API server's URL, with the query. */
  readonly path: string;
  readonly headers: OutgoingHttpHeaders;
  readonly body: string | undefined;
  readonly signal: AbortSignal;
}

/** An answer's head, and its body to read: an HTTP/1.1 response or an HTTP/2 stream. */
export interface ServerAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Readable;
}

/** What one sending gave: the answer's head, or the error and whether to send it again. */
export type Sent = { readonly res: ServerAnswer } | { readonly err: Error; readonly again: boolean };

/** The path a request has on the wire: below the API server's own path, if its URL has one. */
export function pathOn(server: URL, req: OutgoingRequest): string {
  return server.pathname.replace(/\/$/, '') + req.path;
}

/** `GET /api/v1/...`: the request in messages. */
export function requestLine(req: OutgoingRequest): string {
  return `${req.method} ${req.path}`;
}
