import type { IncomingMessage } from 'node:http';

/**
 * Reads a response body in batches of at least `minBytes` (the last one may be smaller), handing
 * each to `onBatch`. The API server writes a list in pieces of about 1.4 KB: each read through an
 * async iterator costs promises and ticks, and each handled alone more than its bytes. Resolves at the end of the body; rejects when the
 * connection fails or closes first, or `onBatch` throws (then the response is destroyed).
 */
export function readInBatches(
  res: IncomingMessage,
  minBytes: number,
  onBatch: (batch: Buffer) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let parts: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (err: unknown): void => {
      if (settled) return;
      settled = true;
      res.destroy();
      reject(err instanceof Error ? err : new Error(String(err)));
    };
    const flush = (): void => {
      if (size === 0) return;
      const batch = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, size);
      parts = [];
      size = 0;
      onBatch(batch);
    };
    res.on('data', (chunk: Buffer) => {
      parts.push(chunk);
      size += chunk.length;
      if (size < minBytes || settled) return;
      try {
        flush();
      } catch (err) {
        fail(err);
      }
    });
    res.on('end', () => {
      if (settled) return;
      try {
        flush();
        settled = true;
        resolve();
      } catch (err) {
        fail(err);
      }
    });
    res.on('error', fail);
    res.on('close', () => fail(new Error('The connection closed before the response ended')));
  });
}
