import { readFile } from 'node:fs/promises';
import type { Clock } from '../clock/clock.ts';
import { errorMessage } from '../log/error-message.ts';
import type { Credentials, RequestCredentials } from './rest-config.ts';

/** How long a token read from a file is used before the file is read again, as client-go's. */
export const TOKEN_FILE_REFRESH_MS = 60_000;

/**
 * A bearer token read from a file and read again every minute, and at once after a 401: a
 * projected service account token is rotated by the kubelet (hourly by default) in place. A read
 * that fails keeps the last token, as client-go does, so a file replaced mid-read costs nothing;
 * the first read must succeed, unless `fallbackToken` (the kubeconfig's inline token) is given.
 */
export function tokenFileCredentials(path: string, clock: Clock, fallbackToken?: string): Credentials {
  let current: { readonly credentials: RequestCredentials; readonly readAt: number } | undefined;
  let reading: Promise<RequestCredentials> | undefined;

  const read = async (): Promise<RequestCredentials> => {
    try {
      const token = (await readFile(path, 'utf8')).trim();
      if (!token) throw new Error('the file is empty');
      const credentials = { authorization: `Bearer ${token}` };
      current = { credentials, readAt: clock.monotonic() };
      return credentials;
    } catch (err) {
      if (current) return current.credentials;
      // As client-go: an inline token beside the file is used while the file cannot be read.
      if (fallbackToken) return { authorization: `Bearer ${fallbackToken}` };
      throw new Error(`token file ${path}: ${errorMessage(err)}`, {
        cause: err,
      });
    } finally {
      reading = undefined;
    }
  };

  return {
    get(): Promise<RequestCredentials> {
      if (current && clock.monotonic() - current.readAt < TOKEN_FILE_REFRESH_MS) {
        return Promise.resolve(current.credentials);
      }
      reading ??= read();
      return reading;
    },
    rejected(used: RequestCredentials): void {
      if (current?.credentials === used) current = { credentials: used, readAt: -Infinity };
    },
  };
}
