import type { Kind } from './kind.ts';

/** Query parameters of a request; undefined values are left out. */
export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * The API path of a kind's collection (`namespace` undefined or empty: all namespaces, or a
 * cluster-scoped kind), of one object (`name` given), or of one of its subresources. Throws on a
 * name or namespace that is no path segment (see {@link requireResourceName}): an empty name
 * would name the collection instead.
 */
export function resourcePath(
  kind: Kind,
  namespace: string | undefined,
  name?: string,
  subresource?: string,
): string {
  if (namespace) requirePathSegment('namespace', namespace);
  if (name !== undefined) requireResourceName(name);
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

/**
 * Throws unless `name` can name one object, as client-go's request builder: an empty name would
 * read or write the whole collection, and `.`, `..` or a name holding `/` or `%` another path.
 */
export function requireResourceName(name: string): void {
  if (name === '') {
    throw new Error(
      'resource name may not be empty: name the object to read or write, or list the collection',
    );
  }
  requirePathSegment('resource name', name);
}

function requirePathSegment(what: string, value: string): void {
  if (value === '.' || value === '..' || value.includes('/') || value.includes('%')) {
    throw new Error(`invalid ${what} "${value}": may not be '.' or '..', nor contain '/' or '%'`);
  }
}
