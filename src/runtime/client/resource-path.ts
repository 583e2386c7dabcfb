import type { Kind } from './kind.ts';

/** Query parameters of a request; undefined values are left out. */
export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * The API path of a kind's collection (`namespace` undefined or empty: all namespaces, or a
 * cluster-scoped kind), of one object (`name` given), or of one of its subresources.
 */
export function resourcePath(
  kind: Kind,
  namespace: string | undefined,
  name?: string,
  subresource?: string,
): string {
  const root = kind.group === '' ? `/api/${kind.version}` : `/apis/${kind.group}/${kind.version}`;
  const scope = kind.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  const object = name === undefined ? '' : `/${encodeURIComponent(name)}`;
  const sub = subresource === undefined ? '' : `/${subresource}`;
  return `${root}${scope}/${kind.plural}${object}${sub}`;
}

/** `path?k=v&...` with the defined parameters, URL-encoded. */
export function withQuery(path: string, query: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
