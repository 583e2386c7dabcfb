import type { Agent as HttpAgent } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { nodeHttp } from '../server/node-http.ts';
import { pathOn, type OutgoingRequest, type Sent } from './outgoing-request.ts';
import { isIdempotent, isStaleConnection } from './request-retry.ts';
import { hostOf } from './server-socket.ts';

/**
 * Sends a request once over HTTP/1.1 on a socket of `agent`. A GET that gets no answer's head
 * within `quietMs` on a kept-alive socket is dropped and goes again on a fresh one: the socket may
 * have died quietly while pooled, and a GET must not wait out its whole deadline on it.
 */
export function sendHttp1(
  server: URL,
  agent: HttpAgent,
  req: OutgoingRequest,
  quietMs: number,
): Promise<Sent> {
  return new Promise((resolve) => {
    let quiet: NodeJS.Timeout | undefined;
    const opts: RequestOptions = {
      method: req.method,
      protocol: server.protocol,
      hostname: hostOf(server),
      port: server.port,
      path: pathOn(server, req),
      headers: req.headers,
      agent,
      signal: req.signal,
    };
    const sending = (server.protocol === 'https:' ? httpsRequest : nodeHttp.request)(opts, (res) => {
      clearTimeout(quiet);
      resolve({ res: { status: res.statusCode ?? 0, headers: res.headers, body: res } });
    });
    // Made only when the timer fires: an Error's stack trace is not free, and most GETs are answered.
    let stale: Error | undefined;
    if (isIdempotent(req.method)) {
      sending.once('socket', () => {
        if (!sending.reusedSocket) return;
        quiet = setTimeout(() => {
          stale = new Error(`no answer within ${quietMs} ms on a kept-alive connection`);
          sending.destroy(stale);
        }, quietMs).unref();
      });
    }
    sending.on('error', (err) => {
      clearTimeout(quiet);
      const again =
        isIdempotent(req.method) && (err === stale || isStaleConnection(err, sending.reusedSocket));
      resolve({ err, again });
    });
    sending.end(req.body);
  });
}
