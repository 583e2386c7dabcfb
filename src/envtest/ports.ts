import { createServer } from 'node:net';
import { TsoperatorError } from '../errors.ts';

/**
 * A loopback port that was free a moment ago. Another process may take it before the caller binds
 * it; the control plane retries its start when that happens.
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs `start` again (up to `attempts` times) when it failed because a port picked by freePort was
 * taken by another process before the server bound it: parallel test files race for ports.
 */
export async function retryOnPortConflict<T>(start: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      const portTaken = err instanceof TsoperatorError && /address already in use/.test(err.message);
      if (!portTaken || attempt >= attempts) throw err;
    }
  }
}
