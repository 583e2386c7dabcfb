import type { Server as HttpServer } from 'node:http';
import { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';

/**
 * The function a closing HTTP/1.1 server calls to end its kept-alive connections: idle ones at
 * once, busy ones as soon as their response is written. `closeIdleConnections` alone misses a
 * connection a client opened but has not used yet (Go's transport dials spares), which then holds
 * `close` open until the client's idle timeout: 90 s for the API server calling a webhook.
 */
export function connectionCloser(server: HttpServer | HttpsServer): () => void {
  const requests = new Map<Socket, number>();
  let closing = false;
  // The socket requests arrive on: the TLS socket of an HTTPS server, the TCP socket otherwise.
  server.on(server instanceof HttpsServer ? 'secureConnection' : 'connection', (socket: Socket) => {
    if (closing) return socket.destroy();
    requests.set(socket, 0);
    socket.once('close', () => requests.delete(socket));
  });
  server.on(
    'request',
    (req: { socket: Socket }, res: { once(event: 'close', listener: () => void): void }) => {
      const socket = req.socket;
      requests.set(socket, (requests.get(socket) ?? 0) + 1);
      res.once('close', () => {
        const left = (requests.get(socket) ?? 1) - 1;
        requests.set(socket, left);
        if (closing && left === 0) socket.destroySoon();
      });
    },
  );
  return () => {
    closing = true;
    for (const [socket, count] of requests) if (count === 0) socket.destroySoon();
  };
}
