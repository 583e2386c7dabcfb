import type { JsonPatchOperation } from '../client/patch.ts';

/** A JSON value, as `JSON.parse` returns it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * The RFC 6902 JSON patch that turns `from` into `to`: no operation touches what did not change,
 * objects are diffed key by key, and arrays by their longest common subsequence, so defaulting one
 * field of `containers[1]` is one `add` under `/spec/containers/1`, not a replaced list.
 *
 * @example
 * ```ts
 * jsonDiff({ spec: { a: 1 } }, { spec: { a: 1, b: 2 } }); // [{ op: 'add', path: '/spec/b', value: 2 }]
 * ```
 */
export function jsonDiff(from: JsonValue, to: JsonValue): JsonPatchOperation[] {
  const ops: JsonPatchOperation[] = [];
  diffValue(from, to, '', ops);
  return ops;
}

/** One reference token of a JSON pointer: `~` and `/` escaped as RFC 6901 says. */
export function escapePointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Deep equality of two JSON values (object key order does not matter). */
export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i] as JsonValue));
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => k in b && jsonEqual(a[k] as JsonValue, b[k] as JsonValue))
  );
}

function diffValue(from: JsonValue, to: JsonValue, path: string, ops: JsonPatchOperation[]): void {
  if (jsonEqual(from, to)) return;
  if (isObject(from) && isObject(to)) return diffObject(from, to, path, ops);
  if (Array.isArray(from) && Array.isArray(to)) return diffArray(from, to, path, ops);
  ops.push({ op: 'replace', path, value: to });
}

function diffObject(
  from: { [key: string]: JsonValue },
  to: { [key: string]: JsonValue },
  path: string,
  ops: JsonPatchOperation[],
): void {
  for (const key of Object.keys(from)) {
    if (!Object.hasOwn(to, key)) ops.push({ op: 'remove', path: `${path}/${escapePointerToken(key)}` });
  }
  for (const [key, value] of Object.entries(to)) {
    const child = `${path}/${escapePointerToken(key)}`;
    if (Object.hasOwn(from, key)) diffValue(from[key] as JsonValue, value, child, ops);
    else ops.push({ op: 'add', path: child, value });
  }
}

/**
 * Keeps the longest common subsequence in place; between two kept elements, old elements are
 * diffed into new ones pairwise, and the surplus is removed or added. Indexes are those of the
 * array as the preceding operations left it, since a patch applies its operations in order.
 */
function diffArray(from: JsonValue[], to: JsonValue[], path: string, ops: JsonPatchOperation[]): void {
  const anchors = [...commonSubsequence(from, to), [from.length, to.length] as const];
  let i = 0;
  let j = 0;
  let index = 0;
  for (const [nextI, nextJ] of anchors) {
    const removed = nextI - i;
    const added = nextJ - j;
    const paired = Math.min(removed, added);
    for (let t = 0; t < paired; t++)
      diffValue(from[i + t] as JsonValue, to[j + t] as JsonValue, `${path}/${index + t}`, ops);
    for (let t = paired; t < removed; t++) ops.push({ op: 'remove', path: `${path}/${index + paired}` });
    for (let t = paired; t < added; t++)
      ops.push({ op: 'add', path: `${path}/${index + t}`, value: to[j + t] as JsonValue });
    index += added + 1;
    i = nextI + 1;
    j = nextJ + 1;
  }
}

/** Index pairs of a longest common subsequence of equal elements, in order. */
function commonSubsequence(a: JsonValue[], b: JsonValue[]): (readonly [number, number])[] {
  const width = b.length + 1;
  // lengths[i * width + j]: length of the LCS of a[i..] and b[j..].
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] = jsonEqual(a[i] as JsonValue, b[j] as JsonValue)
        ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
        : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
    }
  }
  const pairs: (readonly [number, number])[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (jsonEqual(a[i] as JsonValue, b[j] as JsonValue)) pairs.push([i++, j++]);
    else if ((lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0)) i++;
    else j++;
  }
  return pairs;
}

function isObject(v: JsonValue): v is { [key: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
