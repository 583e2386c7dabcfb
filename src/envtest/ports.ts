import { createServer } from 'node:net';

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
