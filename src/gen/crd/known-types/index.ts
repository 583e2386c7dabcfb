import { KNOWN_TYPES_JSON } from './known-types.data.ts';
import { expandKnownType } from './known-type-references.ts';
import type { JsonSchemaObject } from './known-type-references.ts';

export type { JsonSchemaObject } from './known-type-references.ts';

let data: Record<string, JsonSchemaObject> | undefined;
const expanded = new Map<string, JsonSchemaObject>();

/**
 * The schema controller-gen v0.23 emits for one of Kubernetes' own types, keyed by the name
 * @kubernetes/client-node gives it (`V1PodTemplateSpec`, `V1Condition`, ...), plus the apimachinery
 * scalars (`Quantity`, `IntOrString`, `Time`, `MicroTime`, `Duration`). It carries the type's own
 * description; a field's doc comment replaces it. Each call returns a fresh copy, free to change.
 *
 * @example
 * const schema = knownTypeSchema('V1ResourceRequirements'); // { type: 'object', properties: { limits: ... } }
 */
export function knownTypeSchema(name: string): JsonSchemaObject | undefined {
  let schema = expanded.get(name);
  if (schema === undefined) {
    schema = expandKnownType(name, knownTypeData());
    if (schema === undefined) return undefined;
    expanded.set(name, schema);
  }
  return structuredClone(schema);
}

/** The names `knownTypeSchema` answers for, sorted. */
export function knownTypeNames(): string[] {
  return Object.keys(knownTypeData()).sort();
}

function knownTypeData(): Record<string, JsonSchemaObject> {
  data ??= JSON.parse(KNOWN_TYPES_JSON) as Record<string, JsonSchemaObject>;
  return data;
}
