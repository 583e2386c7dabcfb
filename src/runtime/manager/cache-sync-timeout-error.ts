import type { UnsyncedKind } from '../cache/cache.ts';

/** The caches did not sync in time: start-up fails, naming each kind and what its list last ran into. */
export class CacheSyncTimeoutError extends Error {
  readonly unsynced: readonly UnsyncedKind[];

  constructor(timeoutMs: number, unsynced: readonly UnsyncedKind[]) {
    const kinds = unsynced.map((u) => `${u.kind}${u.lastError ? ` (last error: ${u.lastError})` : ''}`);
    super(
      `timed out after ${timeoutMs} ms waiting for the caches to sync: ${kinds.join('; ') || 'no kind reported'}. Is the CRD installed, and may the manager list and watch it?`,
    );
    this.name = 'CacheSyncTimeoutError';
    this.unsynced = unsynced;
  }
}
