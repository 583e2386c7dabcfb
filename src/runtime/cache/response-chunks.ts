import type { Readable } from 'node:stream';

/**
 * Reads a response body from its 'data' events, handing each chunk to `onChunk`: the API server
 * writes a list in pieces of about 1.4 KB, and reading each through an async iterator costs
 * promises and ticks. Resolves at the end of the body; rejects when the connection fails or
 * closes first, or `onChunk` throws (then the response is destroyed).
 */
export function readChunks(res: Readable, onChunk: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (err: unknown): void => {
      if (settled) return;
      settled = true;
      res.destroy();
      reject(err instanceof Error ? err : new Error(String(err)));
    };
    res.on('data', (chunk: Buffer) => {
      if (settled) return;
      try {
        onChunk(chunk);
      } catch (err) {
        fail(err);
      }
    });
    res.on('end', () => {
      if (settled) return;
      settled = true;
      resolve();
    });
    res.on('error', fail);
    res.on('close', () => fail(new Error('The connection closed before the response ended')));
  });
}
