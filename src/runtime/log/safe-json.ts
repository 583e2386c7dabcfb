import { errorMessage } from './error-message.ts';

/** A `JSON.stringify` replacer: called with each key and value, its answer is written instead. */
export type JsonReplacer = (this: unknown, key: string, value: unknown) => unknown;

/** Nesting beyond this is written as {@link TOO_DEEP}: deeper values are rarely read, and the walk recurses. */
const MAX_DEPTH = 64;

/** Written in place of an object that contains itself. */
export const CIRCULAR = '[Circular]';
/** Written in place of what lies deeper than the nesting limit. */
export const TOO_DEEP = '[Too deep]';

/**
 * `JSON.stringify(value, replacer)` that never throws: it writes what it can and marks in place
 * what it could not, so a log line is never lost to the value it describes. A cycle is written
 * `"[Circular]"`, a BigInt `"123n"`, a Symbol value `"Symbol(name)"` and a Symbol key as
 * `"Symbol(name)"` (JSON would drop both silently), a throwing getter, `toJSON` or replacer as
 * `"[Unreadable: <what it threw>]"`, and nesting past 64 levels as `"[Too deep]"`. Everything else
 * is written as JSON.stringify writes it.
 *
 * @example
 * ```ts
 * const a: Record<string, unknown> = { n: 1n };
 * a['self'] = a;
 * safeStringify(a); // {"n":"1n","self":"[Circular]"}
 * ```
 */
export function safeStringify(value: unknown, replacer?: JsonReplacer): string {
  const holder = { '': value };
  const plain = toPlain(holder, '', value, replacer, new Set(), 0);
  // Only strings, finite or non-finite numbers, booleans, null, arrays and null-prototype objects
  // remain: stringify cannot throw on them.
  return JSON.stringify(plain) ?? 'null';
}

/**
 * The own enumerable properties of `obj`, string keys first, then Symbol keys written as
 * `Symbol(name)`; a property whose getter throws comes with its mark as value. Never throws.
 */
export function safeEntries(obj: object): [string, unknown][] {
  let keys: (string | symbol)[];
  try {
    keys = Reflect.ownKeys(obj).filter((k) => Object.prototype.propertyIsEnumerable.call(obj, k));
  } catch (err) {
    return [['[Unreadable]', unreadable(err)]];
  }
  return keys.map((key) => [typeof key === 'symbol' ? key.toString() : key, read(obj, key)]);
}

function toPlain(
  holder: object,
  key: string,
  raw: unknown,
  replacer: JsonReplacer | undefined,
  ancestors: Set<object>,
  depth: number,
): unknown {
  if (isObjectLike(raw) && ancestors.has(raw)) return CIRCULAR;
  let value: unknown;
  try {
    value = replaced(holder, key, raw, replacer);
  } catch (err) {
    return unreadable(err);
  }
  switch (typeof value) {
    case 'bigint':
      return `${value}n`;
    case 'symbol':
      return value.toString();
    case 'function':
    case 'undefined':
      return undefined;
    case 'object':
      break;
    default:
      return value;
  }
  if (value === null) return null;
  if (ancestors.has(value)) return CIRCULAR;
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  // The raw value counts as an ancestor too: a replacer's copy (an Error's fields) may lead back to it.
  const added = [value, ...(isObjectLike(raw) && raw !== value ? [raw] : [])];
  for (const a of added) ancestors.add(a);
  try {
    return Array.isArray(value)
      ? plainArray(value, replacer, ancestors, depth)
      : plainObject(value, replacer, ancestors, depth);
  } finally {
    for (const a of added) ancestors.delete(a);
  }
}

/** What JSON.stringify would write for `raw` before recursing: its toJSON, then the replacer. */
function replaced(holder: object, key: string, raw: unknown, replacer: JsonReplacer | undefined): unknown {
  let value = raw;
  if (isObjectLike(value)) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = (toJSON as (key: string) => unknown).call(value, key);
  }
  return replacer ? replacer.call(holder, key, value) : value;
}

function plainArray(
  array: readonly unknown[],
  replacer: JsonReplacer | undefined,
  ancestors: Set<object>,
  depth: number,
): unknown[] {
  const out: unknown[] = [];
  let length: number;
  try {
    length = array.length;
  } catch (err) {
    return [unreadable(err)];
  }
  for (let i = 0; i < length; i++) {
    const item = toPlain(array, String(i), read(array, i), replacer, ancestors, depth + 1);
    out.push(item === undefined ? null : item);
  }
  return out;
}

function plainObject(
  obj: object,
  replacer: JsonReplacer | undefined,
  ancestors: Set<object>,
  depth: number,
): Record<string, unknown> {
  // A null prototype: a key named `__proto__` is then an ordinary property, as in the input.
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, raw] of safeEntries(obj)) {
    const item = toPlain(obj, key, raw, replacer, ancestors, depth + 1);
    if (item !== undefined) out[key] = item;
  }
  return out;
}

function read(obj: object, key: PropertyKey): unknown {
  try {
    return (obj as Record<PropertyKey, unknown>)[key];
  } catch (err) {
    return unreadable(err);
  }
}

function unreadable(err: unknown): string {
  return `[Unreadable: ${errorMessage(err)}]`;
}

function isObjectLike(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}
