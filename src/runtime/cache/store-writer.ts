import type { KubeObject } from '../api/kube-object.ts';
import type { Kind } from '../client/kind.ts';
import type { Logger } from '../log/logger.ts';
import { deepFreeze } from './copy-on-read.ts';
import { reportSkippedObject } from './skipped-object.ts';
import type { Store } from './store.ts';
import type { Transform } from './transform.ts';

/** What a {@link StoreWriter.put} changed: the object that was there, and the one now. */
export interface Put<T> {
  readonly old: T | undefined;
  readonly obj: T;
}

/**
 * Puts objects from the API server into a store as an informer does: transformed, frozen and
 * indexed. An object whose transform or index function throws is skipped, the store left as it
 * was, so the informer goes on with the other objects and the next events. A version already
 * stored stays, stale rather than dropped: dropping it would tell handlers and readers that an
 * existing object is gone (a reconciler may act on that), while a stale version is a state the
 * object really had, and the next good version replaces it. client-go likewise logs a failed
 * store update and drops the event.
 */
export class StoreWriter<T extends KubeObject> {
  readonly #kind: Kind;
  readonly #transform: Transform | undefined;
  readonly #logger: Logger;

  constructor(kind: Kind, transform: Transform | undefined, logger: Logger) {
    this.#kind = kind;
    this.#transform = transform;
    this.#logger = logger;
  }

  /** Stores `raw` under `key`; undefined when skipped, then logged and counted if `report`. */
  put(store: Store<T>, key: string, raw: KubeObject, report = true): Put<T> | undefined {
    const obj = this.prepare(raw, report);
    if (!obj) return undefined;
    try {
      return { old: store.set(key, obj), obj };
    } catch (err) {
      if (report) reportSkippedObject(this.#logger, this.#kind, raw, 'index', err);
      return undefined;
    }
  }

  /** The transformed, frozen object; undefined when the transform throws, then logged and counted if `report`. */
  prepare(raw: KubeObject, report = true): T | undefined {
    try {
      const transformed = this.#transform ? this.#transform(raw) : raw;
      if (typeof transformed !== 'object' || transformed === null)
        throw new TypeError(`it returned ${transformed === null ? 'null' : typeof transformed}`);
      return deepFreeze(transformed as T);
    } catch (err) {
      if (report) reportSkippedObject(this.#logger, this.#kind, raw, 'transform', err);
      return undefined;
    }
  }
}
