import { isDeepStrictEqual } from 'node:util';
import type { JsonValue } from '../../../markers/argument-type.ts';

/** A JSON object: one OpenAPI v3 schema as controller-gen emits it. */
export type JsonSchemaObject = { [key: string]: JsonValue };

/**
 * Where a known type's schema contains another known type (PodSpec holds Containers), the
 * stored data says `{ "$known": "V1Container" }` instead of repeating it; `description` stays,
 * because a field's doc comment replaces its type's. This keeps the shipped data small.
 */
const REFERENCE = '$known';

/**
 * Replaces every subschema equal to another known type's schema (descriptions of the subschema
 * itself aside) with a reference to it. Only object types are referenced: a plain `string` must
 * never turn into a reference to whichever known type happens to be a string.
 */
export function compactKnownTypes(
  schemas: Readonly<Record<string, JsonSchemaObject>>,
): Record<string, JsonSchemaObject> {
  const candidates = Object.entries(schemas)
    .filter(([, schema]) => schema['properties'] !== undefined)
    .map(([name, schema]) => ({ name, body: withoutDescription(schema) }));
  const compact: Record<string, JsonSchemaObject> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    compact[name] = compactChildren(
      schema,
      candidates.filter((c) => c.name !== name),
    );
  }
  return compact;
}

/** The full schema of `name`, with every reference replaced by the schema it names. */
export function expandKnownType(
  name: string,
  data: Readonly<Record<string, JsonSchemaObject>>,
): JsonSchemaObject | undefined {
  const schema = data[name];
  return schema === undefined ? undefined : (expand(schema, data) as JsonSchemaObject);
}

interface Candidate {
  name: string;
  body: JsonSchemaObject;
}

function compactChildren(schema: JsonValue, candidates: readonly Candidate[]): JsonSchemaObject {
  const result: JsonSchemaObject = {};
  for (const [key, value] of Object.entries(schema as JsonSchemaObject))
    result[key] = compactValue(value, candidates);
  return result;
}

function compactValue(value: JsonValue, candidates: readonly Candidate[]): JsonValue {
  if (Array.isArray(value)) return value.map((item) => compactValue(item, candidates));
  if (!isObject(value)) return value;
  const body = withoutDescription(value);
  const match = candidates.find((c) => isDeepStrictEqual(c.body, body));
  if (!match) return compactChildren(value, candidates);
  const reference: JsonSchemaObject = { [REFERENCE]: match.name };
  if (value['description'] !== undefined) reference['description'] = value['description'];
  return reference;
}

function expand(value: JsonValue, data: Readonly<Record<string, JsonSchemaObject>>): JsonValue {
  if (Array.isArray(value)) return value.map((item) => expand(item, data));
  if (!isObject(value)) return value;
  const target = value[REFERENCE];
  if (typeof target === 'string') {
    const referenced = data[target];
    if (referenced === undefined)
      throw new Error(`known type data refers to ${target}, which it does not hold`);
    const body = withoutDescription(expand(referenced, data) as JsonSchemaObject);
    return value['description'] === undefined ? body : { description: value['description'], ...body };
  }
  const result: JsonSchemaObject = {};
  for (const [key, child] of Object.entries(value)) result[key] = expand(child, data);
  return result;
}

function withoutDescription(schema: JsonSchemaObject): JsonSchemaObject {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== 'description'));
}

function isObject(value: JsonValue): value is JsonSchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
