import type { Json } from '../api/json.ts';
import type { KubeObject } from '../api/kube-object.ts';
import { isNotFound } from './api-error.ts';
import type { Kind } from './kind.ts';
import {
  objectMetadataOf,
  PARTIAL_OBJECT_METADATA,
  PARTIAL_OBJECT_METADATA_LIST,
  markMetadataOnly,
} from './partial-object-metadata.ts';
import { listInPages, type PageRequest } from './list-pager.ts';
import type { ObjectKey } from './object-key.ts';
import type { GetOptions, ListOptions, ObjectList } from './options.ts';
import { resourcePath, withQuery } from './resource-path.ts';
import type { Transport } from './transport.ts';

/**
 * Reads objects: from the cache (the client's default) or from the API server (`client.direct()`).
 * Objects come as the API server's JSON, `Json<T>`: their timestamps are RFC 3339 strings.
 */
export interface Reader {
  /** The object, or undefined when it does not exist. */
  get<T extends KubeObject>(
    kind: Kind<T>,
    key: ObjectKey,
    options?: GetOptions,
  ): Promise<Json<T> | undefined>;
  /** One page (all objects unless `limit` is set), each with apiVersion and kind set. */
  list<T extends KubeObject>(kind: Kind<T>, options?: ListOptions): Promise<ObjectList<Json<T>>>;
  /** Every matching object, following `continue` tokens page by page. */
  listAll<T extends KubeObject>(kind: Kind<T>, options?: ListOptions): Promise<Json<T>[]>;
}

/** Page size of `listAll`, as client-go's pager. */
const DEFAULT_PAGE_SIZE = 500;

interface WireList<T> {
  items?: T[];
  metadata?: { resourceVersion?: string; continue?: string };
}

/**
 * A Reader that always asks the API server (a consistent read), as controller-runtime's APIReader;
 * with `metadataOnly`, as client-go's metadata client: each object comes as its apiVersion, kind
 * and metadata (PartialObjectMetadata, managedFields left out), for a reader that needs no more
 * and should not hold whole objects.
 */
export class ApiReader implements Reader {
  readonly #transport: Transport;
  readonly #metadataOnly: boolean;

  constructor(transport: Transport, metadataOnly = false) {
    this.#transport = transport;
    this.#metadataOnly = metadataOnly;
  }

  async get<T extends KubeObject>(
    kind: Kind<T>,
    key: ObjectKey,
    options: GetOptions = {},
  ): Promise<Json<T> | undefined> {
    try {
      const path = resourcePath(kind, key.namespace, key.name);
      const obj = await this.#transport.request<Json<T>>({
        method: 'GET',
        path,
        ...(this.#metadataOnly ? { accept: PARTIAL_OBJECT_METADATA } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return this.#metadataOnly ? (this.#asKind(kind, obj) as Json<T>) : obj;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async list<T extends KubeObject>(kind: Kind<T>, options: ListOptions = {}): Promise<ObjectList<Json<T>>> {
    const path = withQuery(resourcePath(kind, options.namespace), {
      labelSelector: options.labelSelector,
      fieldSelector: options.fieldSelector,
      limit: options.limit,
      continue: options.continue,
    });
    const list = await this.#transport.request<WireList<Json<T>>>({
      method: 'GET',
      path,
      ...(this.#metadataOnly ? { accept: PARTIAL_OBJECT_METADATA_LIST } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    // Items of built-in lists come without apiVersion and kind (metadata ones with their own); writes need the kind's.
    const items = (list.items ?? []).map((item) => this.#asKind(kind, item) as Json<T>);
    const next = list.metadata?.continue;
    return {
      items,
      resourceVersion: list.metadata?.resourceVersion ?? '',
      ...(next ? { continue: next } : {}),
    };
  }

  /** `obj` as an object of `kind`, cut down to its metadata when metadata-only. */
  #asKind(kind: Kind, obj: KubeObject): KubeObject {
    obj.apiVersion = kind.apiVersion;
    obj.kind = kind.kind;
    return this.#metadataOnly ? markMetadataOnly(objectMetadataOf(obj)) : obj;
  }

  /** Every page; an expired continue token falls back to one full list (see {@link listInPages}). */
  async listAll<T extends KubeObject>(kind: Kind<T>, options: ListOptions = {}): Promise<Json<T>[]> {
    const fetchPage = (page: PageRequest): Promise<ObjectList<Json<T>>> =>
      this.list(kind, { ...options, ...page });
    return (await listInPages(fetchPage, options.limit ?? DEFAULT_PAGE_SIZE, options.continue)).items;
  }
}
