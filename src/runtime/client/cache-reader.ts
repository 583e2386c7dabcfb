import type { KubeObject } from '../api/kube-object.ts';
import type { Reader } from './api-reader.ts';
import type { Kind } from './kind.ts';
import type { ObjectKey } from './object-key.ts';

/** What a read covers, for read-your-writes: one object, or what a list selects. */
export type ReadScope =
  | { readonly key: ObjectKey }
  | { readonly namespace?: string | undefined; readonly labelSelector?: string | undefined };

/**
 * What the client needs of a cache: reads, and read-your-writes. The client tells the cache about
 * each write it made; before a cached read it asks the cache to wait until the writes that read
 * could show are in the cache, and reads `apiFallback` instead when they are not in time.
 */
export interface CacheReader extends Reader {
  /**
   * Records a write the client made: the object the API server answered with, or `deleted`. A
   * write the cache could never show (outside its namespaces or label selector) is not recorded.
   */
  noteWrite(kind: Kind, answer: KubeObject, deleted: boolean): void;
  /**
   * Resolves true once the cache holds every noted write that `read` could show: those to its key,
   * or, for a list, those in its namespace and label selector. False when `timeoutMs` passed first.
   */
  waitForWrites(kind: Kind, read: ReadScope, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /**
   * Reads the API server in the cache's place, answering as the cache would: within its
   * namespaces and selectors (so it sends no request the cache's own permissions do not allow),
   * through its transform and indexes. What the client reads when `waitForWrites` says false.
   */
  readonly apiFallback: Reader;
}
