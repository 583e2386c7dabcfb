import type { TLSSocket } from 'node:tls';

/**
 * A socket dialled that spoke HTTP/1.1, kept for the keep-alive agent's next new socket for as long
 * as a socket may sit idle in its pool. Nothing may come for it (every request that waited for the
 * dial may have given up), so until it is taken it is what a free socket of Node's agent is: closed
 * on an error (a reset) rather than left to crash the process with an error nobody listens for, and
 * unref'd, so that it keeps no process alive.
 */
export class SpareSocket {
  readonly #socket: TLSSocket;
  readonly #expiry: NodeJS.Timeout;

  constructor(socket: TLSSocket, idleMs: number) {
    this.#socket = socket;
    socket.on('error', closeOnError).unref();
    this.#expiry = setTimeout(() => socket.destroy(), idleMs).unref();
  }

  /** The socket, ref'd again, for a request to go on; undefined when it closed meanwhile. */
  take(): TLSSocket | undefined {
    clearTimeout(this.#expiry);
    const socket = this.#socket;
    if (socket.destroyed) return undefined;
    // The agent adds its own listeners for the request it carries.
    socket.off('error', closeOnError);
    return socket.ref();
  }

  destroy(): void {
    clearTimeout(this.#expiry);
    this.#socket.destroy();
  }
}

function closeOnError(this: TLSSocket): void {
  this.destroy();
}
