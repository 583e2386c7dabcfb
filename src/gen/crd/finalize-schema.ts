import type { JSONSchemaProps } from './json-schema-props.ts';
import { OMIT_EMPTY_SCALAR_KEYS } from './json-schema-props.ts';

/** Values held as raw JSON (Go's `*JSON`): set means written, even an empty `[]` or `{}`. */
const JSON_VALUE_KEYS: ReadonlySet<string> = new Set(['default', 'example']);

/**
 * Drops what Go's JSON encoding of a schema leaves out (`omitempty`): empty property maps, lists
 * and strings, false flags, and references that were never resolved.
 */
export function finalizeSchema(schema: JSONSchemaProps): JSONSchemaProps {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (value === undefined || key === '$ref') continue;
    if ((value === false || value === '') && OMIT_EMPTY_SCALAR_KEYS.has(key)) continue;
    if (Array.isArray(value) && value.length === 0 && !JSON_VALUE_KEYS.has(key)) continue;
    out[key] = finalizeValue(key, value);
  }
  if (out['properties'] !== undefined && Object.keys(out['properties'] as object).length === 0)
    delete out['properties'];
  return out;
}

function finalizeValue(key: string, value: unknown): unknown {
  switch (key) {
    case 'properties':
      return Object.fromEntries(
        Object.entries(value as Record<string, JSONSchemaProps>).map(([k, v]) => [k, finalizeSchema(v)]),
      );
    case 'items':
      return finalizeSchema(value as JSONSchemaProps);
    case 'additionalProperties':
      return typeof value === 'object' ? finalizeSchema(value as JSONSchemaProps) : value;
    case 'allOf':
    case 'anyOf':
      return (value as JSONSchemaProps[]).map(finalizeSchema);
    default:
      return value;
  }
}
