import type { KubernetesObject } from '@kubernetes/client-node';
import { isNotFound } from './api-error.ts';
import type { Kind } from './kind.ts';
import { listInPages, type PageRequest } from './list-pager.ts';
import type { ObjectKey } from './object-key.ts';
import type { GetOptions, ListOptions, ObjectList } from './options.ts';
import { resourcePath, withQuery } from './resource-path.ts';
import type { Transport } from './transport.ts';

/** Reads objects: from the cache (the client's default) or from the API server (`client.direct()`). */
export interface Reader {
  /** The object, or undefined when it does not exist. */
  get<T extends KubernetesObject>(
    kind: Kind<T>,
    key: ObjectKey,
    options?: GetOptions,
  ): Promise<T | undefined>;
  /** One page (all objects unless `limit` is set), each with apiVersion and kind set. */
  list<T extends KubernetesObject>(kind: Kind<T>, options?: ListOptions): Promise<ObjectList<T>>;
  /** Every matching object, following `continue` tokens page by page. */
  listAll<T extends KubernetesObject>(kind: Kind<T>, options?: ListOptions): Promise<T[]>;
}

/** Page size of `listAll`, as client-go's pager. */
const DEFAULT_PAGE_SIZE = 500;

interface WireList<T> {
  items?: T[];
  metadata?: { resourceVersion?: string; continue?: string };
}

/** A Reader that always asks the API server (a consistent read), as controller-runtime's APIReader. */
export class ApiReader implements Reader {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  async get<T extends KubernetesObject>(
    kind: Kind<T>,
    key: ObjectKey,
    options: GetOptions = {},
  ): Promise<T | undefined> {
    try {
      const path = resourcePath(kind, key.namespace, key.name);
      return await this.#transport.request<T>({
        method: 'GET',
        path,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async list<T extends KubernetesObject>(kind: Kind<T>, options: ListOptions = {}): Promise<ObjectList<T>> {
    const path = withQuery(resourcePath(kind, options.namespace), {
      labelSelector: options.labelSelector,
      fieldSelector: options.fieldSelector,
      limit: options.limit,
      continue: options.continue,
    });
    const list = await this.#transport.request<WireList<T>>({
      method: 'GET',
      path,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const items = list.items ?? [];
    // Items of built-in lists come without apiVersion and kind; writes need them back.
    for (const item of items) {
      item.apiVersion = kind.apiVersion;
      item.kind = kind.kind;
    }
    const next = list.metadata?.continue;
    return {
      items,
      resourceVersion: list.metadata?.resourceVersion ?? '',
      ...(next ? { continue: next } : {}),
    };
  }

  /** Every page; an expired continue token falls back to one full list (see {@link listInPages}). */
  async listAll<T extends KubernetesObject>(kind: Kind<T>, options: ListOptions = {}): Promise<T[]> {
    const fetchPage = (page: PageRequest): Promise<ObjectList<T>> => this.list(kind, { ...options, ...page });
    return (await listInPages(fetchPage, options.limit ?? DEFAULT_PAGE_SIZE, options.continue)).items;
  }
}
