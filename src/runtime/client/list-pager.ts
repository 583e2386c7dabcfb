import { isGone } from './api-error.ts';
import type { ObjectList } from './options.ts';

/** Which page to fetch: `limit` undefined asks for the whole list at once. */
export interface PageRequest {
  readonly limit: number | undefined;
  readonly continue: string | undefined;
}

/** Every item of a list and the resourceVersion it was read at. */
export interface FullList<T> {
  readonly items: T[];
  readonly resourceVersion: string;
}

/**
 * Reads a list page by page from `start` (default: the first page), as client-go's ListPager. A
 * continue token the API server no longer honours (410: etcd compacted the revision the first page
 * was read at, which a list slower than the compaction interval always meets) starts the list
 * over as one unpaginated request, which needs no old revision.
 *
 * @example
 * ```ts
 * const { items } = await listInPages((page) => reader.list(PodKind, { ...page }), 500);
 * ```
 */
export async function listInPages<T>(
  fetchPage: (page: PageRequest) => Promise<ObjectList<T>>,
  limit: number,
  start?: string,
): Promise<FullList<T>> {
  const items: T[] = [];
  let token = start;
  for (;;) {
    let page: ObjectList<T>;
    try {
      page = await fetchPage({ limit, continue: token });
    } catch (err) {
      if (token === undefined || !isGone(err)) throw err;
      const full = await fetchPage({ limit: undefined, continue: undefined });
      return { items: full.items, resourceVersion: full.resourceVersion };
    }
    for (const item of page.items) items.push(item);
    token = page.continue;
    if (!token) return { items, resourceVersion: page.resourceVersion };
  }
}
