/** A patch and the content type the API server reads it as. */
export interface Patch {
  readonly type: 'merge' | 'json' | 'strategic' | 'apply';
  readonly body: unknown;
}

/** One RFC 6902 JSON patch operation. */
export type JsonPatchOperation =
  | { readonly op: 'add' | 'replace' | 'test'; readonly path: string; readonly value: unknown }
  | { readonly op: 'remove'; readonly path: string }
  | { readonly op: 'move' | 'copy'; readonly from: string; readonly path: string };

/** An RFC 7386 JSON merge patch: `null` removes a field; arrays are replaced whole. */
export function mergePatch(body: object): Patch {
  return { type: 'merge', body };
}

/** An RFC 6902 JSON patch. */
export function jsonPatch(operations: readonly JsonPatchOperation[]): Patch {
  return { type: 'json', body: operations };
}

/** A strategic merge patch: lists merge by their keys (built-in kinds only). */
export function strategicMergePatch(body: object): Patch {
  return { type: 'strategic', body };
}

/** A server-side apply of `body`, the fields this manager owns (use `client.apply`). */
export function applyPatch(body: object): Patch {
  return { type: 'apply', body };
}

/**
 * The merge patch that turns `original` into `modified`, as controller-runtime's MergeFrom. With
 * `optimisticLock` it carries the original resourceVersion, so the patch fails with a Conflict when
 * the object changed meanwhile.
 *
 * @example
 * ```ts
 * const before = structuredClone(app);
 * app.metadata!.labels = { ...app.metadata!.labels, tier: 'web' };
 * await client.patch(app, mergePatchFrom(before, app));
 * ```
 */
export function mergePatchFrom(
  original: object,
  modified: object,
  options: { optimisticLock?: boolean } = {},
): Patch {
  const body = (diff(original, modified) ?? {}) as Record<string, unknown>;
  if (options.optimisticLock) {
    const rv = (original as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
    body['metadata'] = { ...(body['metadata'] as object | undefined), resourceVersion: rv };
  }
  return mergePatch(body);
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The merge patch from `a` to `b`; undefined when they are equal. */
function diff(a: unknown, b: unknown): Json | undefined {
  if (!isPlainObject(a) || !isPlainObject(b))
    return JSON.stringify(a) === JSON.stringify(b) ? undefined : ((b ?? null) as Json);
  const out: Record<string, Json> = {};
  for (const key of Object.keys(a)) if (!(key in b) || b[key] === undefined) out[key] = null;
  for (const [key, value] of Object.entries(b)) {
    if (value === undefined) continue;
    const change = key in a ? diff(a[key], value) : (value as Json);
    if (change !== undefined) out[key] = change;
  }
  return Object.keys(out).length ? out : undefined;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
