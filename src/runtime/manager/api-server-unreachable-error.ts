import { errorMessage } from '../log/error-message.ts';

/** Start-up stopped because the API server could not be reached within `cacheSyncTimeout`. */
export class ApiServerUnreachableError extends Error {
  override readonly name = 'ApiServerUnreachableError';

  constructor(timeoutMs: number, cause: unknown) {
    super(
      `the API server could not be reached within cacheSyncTimeout (${timeoutMs} ms): ${errorMessage(cause)}. Is it running, and may this process reach it (its address, a NetworkPolicy, a proxy)?`,
      { cause },
    );
  }
}
