import { KNOWN_TYPES_JSON } from './known-types.data.ts';
import { expandKnownType } from './known-type-references.ts';
import type { JsonSchemaObject } from './known-type-references.ts';

export type { JsonSchemaObject } from './known-type-references.ts';

let data: Record<string, JsonSchemaObject> | undefined;

/**
 * The schema controller-gen v0.23 emits for one of Kubernetes' own types, keyed by the name
 * @kubernetes/client-node gives it (`V1PodTemplateSpec`, `V1Condition`, ...), plus the apimachinery
 * scalars (`Quantity`, `IntOrString`, `Time`, `MicroTime`, `Duration`). It carries the type's own
 * description; a field's doc comment replaces it. Each call builds a fresh copy, free to change.
 *
 * @example
 * const schema = knownTypeSchema('V1ResourceRequirements'); // { type: 'object', properties: { limits: ... } }
 */
export function knownTypeSchema(name: string): JsonSchemaObject | undefined {
  return expandKnownType(name, knownTypeData());
}

const shared = new Map<string, Readonly<JsonSchemaObject>>();

/**
 * The same schema as `knownTypeSchema`, built once per process and frozen: for callers that copy
 * what they keep anyway (schema flattening does), so a type embedded by twenty kinds is built once.
 */
export function sharedKnownTypeSchema(name: string): Readonly<JsonSchemaObject> | undefined {
  let schema = shared.get(name);
  if (schema === undefined) {
    const built = knownTypeSchema(name);
    if (built === undefined) return undefined;
    schema = deepFreeze(built);
    shared.set(name, schema);
  }
  return schema;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Whether `knownTypeSchema(name)` has a schema; cheaper than building one to find out. */
export function hasKnownType(name: string): boolean {
  return Object.hasOwn(knownTypeData(), name);
}

/**
 * The `type` and `format` of a known type, which is all a reference to it shows before flattening;
 * read from the data as stored, without building the schema.
 */
export function knownTypeOutline(name: string): { type?: string; format?: string } {
  const schema = knownTypeData()[name];
  const outline: { type?: string; format?: string } = {};
  if (typeof schema?.['type'] === 'string') outline.type = schema['type'];
  if (typeof schema?.['format'] === 'string') outline.format = schema['format'];
  return outline;
}

/** The names `knownTypeSchema` answers for, sorted. */
export function knownTypeNames(): string[] {
  return Object.keys(knownTypeData()).sort();
}

function knownTypeData(): Record<string, JsonSchemaObject> {
  data ??= JSON.parse(KNOWN_TYPES_JSON) as Record<string, JsonSchemaObject>;
  return data;
}
