import { ConnectionLostError } from './connection-lost-error.ts';
import type { Http2Connection } from './http2-connection.ts';
import { pathOn, requestLine, type OutgoingRequest, type Sent } from './outgoing-request.ts';
import { isIdempotent } from './request-retry.ts';

/** HTTP/2's REFUSED_STREAM: the server processed nothing of the stream. */
const REFUSED_STREAM = 7;

/**
 * Sends a request once on an HTTP/2 connection, on a stream reserved for it. A stream the server
 * refused (REFUSED_STREAM), one above the last stream of its GOAWAY, or one never opened was not
 * processed, and may go again whatever its method; a GET also goes again when its connection died
 * under it. A write on a connection found
 * dead fails with a ConnectionLostError.
 */
export function sendHttp2(server: URL, connection: Http2Connection, req: OutgoingRequest): Promise<Sent> {
  const { method, signal } = req;
  let stream: ReturnType<Http2Connection['request']>;
  try {
    stream = connection.request(
      { ...req.headers, ':method': method, ':path': pathOn(server, req) },
      req.body === undefined,
      signal,
    );
  } catch (err) {
    return Promise.resolve({ err: err as Error, again: !signal.aborted });
  }
  if (req.body !== undefined) stream.end(req.body);
  return new Promise((resolve) => {
    // Every stream closes, most after their answer came: only a close before it makes an error.
    let settled = false;
    const failed = (err: Error): void => {
      if (settled) return;
      settled = true;
      const unprocessed = stream.rstCode === REFUSED_STREAM || connection.neverHad(stream);
      const again = !signal.aborted && (unprocessed || (isIdempotent(method) && !connection.usable));
      const lost = connection.lost;
      resolve({
        err:
          lost !== undefined && !again && !signal.aborted
            ? new ConnectionLostError(requestLine(req), lost)
            : err,
        again,
      });
    };
    stream.once('response', (head) => {
      settled = true;
      resolve({ res: { status: Number(head[':status']), headers: head, body: stream } });
    });
    stream.once('error', failed);
    stream.once('close', () => {
      if (!settled) failed(new Error(`${requestLine(req)}: the stream closed before an answer`));
    });
  });
}
