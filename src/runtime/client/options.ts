/** Options of `list` and `listAll`. */
export interface ListOptions {
  /** Namespace to list in. Default: all namespaces (and always for cluster-scoped kinds). */
  readonly namespace?: string;
  /** A label selector, e.g. `app=web,tier in (fe,be),!canary`. Default: none. */
  readonly labelSelector?: string;
  /**
   * A field selector, e.g. `spec.nodeName=node-1`. Default: none. Through the cache the field
   * must have an index (see `Cache.indexField`); `metadata.name` and `metadata.namespace` always do.
   */
  readonly fieldSelector?: string;
  /**
   * Page size; `list` returns one page and a `continue` token. Default: no limit (listAll: 500).
   * The cache holds every object already and ignores `limit` and `continue`.
   */
  readonly limit?: number;
  /** Token of the next page, from the previous page's `continue`. Default: first page. */
  readonly continue?: string;
  /**
   * Through the cache, the cache's own object instead of a copy, as controller-runtime's
   * UnsafeDisableDeepCopy: for reads that only look. It is frozen, so a change to it throws;
   * copy it (`cloneJson`) to change it. The API server's answers are the caller's own whatever
   * this says. Default: false.
   */
  readonly unsafeDisableDeepCopy?: boolean;
  /** Default: none. */
  readonly signal?: AbortSignal;
}

/** Options of `get`. */
export interface GetOptions {
  /**
   * Through the cache, the cache's own object instead of a copy, as controller-runtime's
   * UnsafeDisableDeepCopy: for reads that only look. It is frozen, so a change to it throws;
   * copy it (`cloneJson`) to change it. The API server's answers are the caller's own whatever
   * this says. Default: false.
   */
  readonly unsafeDisableDeepCopy?: boolean;
  /** Default: none. */
  readonly signal?: AbortSignal;
}

/** Options of create, update and status update. */
export interface WriteOptions {
  /** The field manager recorded in managedFields. Default: the client's `fieldManager`. */
  readonly fieldManager?: string;
  /** Validate and default without persisting. Default: false. */
  readonly dryRun?: boolean;
  /** Default: none. */
  readonly signal?: AbortSignal;
}

/** Options of patch and apply. */
export interface PatchOptions extends WriteOptions {
  /** Server-side apply only: take ownership of conflicting fields. Default: false. */
  readonly force?: boolean;
}

/** Options of delete. */
export interface DeleteOptions {
  /** How dependents are deleted. Default: the kind's server default (Background for most). */
  readonly propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  /** Seconds before the object is deleted; 0 deletes at once. Default: the object's own. */
  readonly gracePeriodSeconds?: number;
  /** Delete only if the object still has this uid and/or resourceVersion. Default: none. */
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  /** Default: false. */
  readonly dryRun?: boolean;
  /** Default: none. */
  readonly signal?: AbortSignal;
}

/** One page of a list. */
export interface ObjectList<T> {
  readonly items: T[];
  /** The list's resourceVersion: watch from here to see every later change. */
  readonly resourceVersion: string;
  /** Set when more pages remain: pass it as `continue`. */
  readonly continue?: string;
}
