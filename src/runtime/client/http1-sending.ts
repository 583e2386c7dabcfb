import type { Agent as HttpAgent } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { nodeHttp } from '../server/node-http.ts';
import { ConnectionLostError } from './connection-lost-error.ts';
import { pathOn, requestLine, type OutgoingRequest, type Sent } from './outgoing-request.ts';
import { isBrokenConnection, isIdempotent, isStaleConnection } from './request-retry.ts';
import { Http2OfferedError } from './server-connections.ts';
import { hostOf } from './server-socket.ts';

/**
 * Sends a request once over HTTP/1.1 on a socket of `agent`. As Go's transport, it goes again only
 * when it is a GET whose kept-alive socket failed before any answer came (the server closed it
 * while idle, or it was reset): never because an answer is slow, which a loaded server's often
 * is, and which sending again would only load it more. Any request goes again when its new socket
 * turned out to speak HTTP/2 (nothing of it was sent). A request whose connection broke and that
 * is not sent again fails with a ConnectionLostError, for the server may have done it; one whose
 * connection could not be made was sent nowhere, and fails with the connection's error, as over
 * HTTP/2, and as Go's transport returns a dial's error, whatever the method.
 */
export function sendHttp1(server: URL, agent: HttpAgent, req: OutgoingRequest): Promise<Sent> {
  return new Promise((resolve) => {
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
    const sending = (server.protocol === 'https:' ? httpsRequest : nodeHttp.request)(opts, (res) =>
      resolve({ res: { status: res.statusCode ?? 0, headers: res.headers, body: res } }),
    );
    // A request is written only once its socket is connected.
    let connected = false;
    sending.once('socket', (socket) => {
      if (!socket.connecting) connected = true;
      else socket.once('connect', () => (connected = true));
    });
    sending.on('error', (err) => {
      const again =
        err instanceof Http2OfferedError ||
        (isIdempotent(req.method) && isStaleConnection(err, sending.reusedSocket));
      const lost = !again && connected && !req.signal.aborted && isBrokenConnection(err);
      resolve({
        err: lost ? new ConnectionLostError(requestLine(req), `it broke: ${err.message}`) : err,
        again,
      });
    });
    sending.end(req.body);
  });
}
