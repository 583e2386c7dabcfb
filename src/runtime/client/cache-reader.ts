import type { KubernetesObject } from '@kubernetes/client-node';
import type { Reader } from './api-reader.ts';
import type { Kind } from './kind.ts';
import type { ObjectKey } from './object-key.ts';

/**
 * What the client needs of a cache: reads, and read-your-writes. The client tells the cache about
 * each write it made; before a cached read it asks the cache to wait until the writes to that key
 * (or, for a list, to that kind) are in the cache.
 */
export interface CacheReader extends Reader {
  /** Records a write the client made: the object the API server answered with, or `deleted`. */
  noteWrite(kind: Kind, answer: KubernetesObject, deleted: boolean): void;
  /**
   * Resolves true once the cache holds every noted write to `key` (to the whole kind when `key`
   * is undefined), false when `timeoutMs` passed first: the caller then reads the API server.
   */
  waitForWrites(
    kind: Kind,
    key: ObjectKey | undefined,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<boolean>;
}
