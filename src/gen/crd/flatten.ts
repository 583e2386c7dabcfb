import { isDeepStrictEqual } from 'node:util';
import type { JSONSchemaProps } from './json-schema-props.ts';
import { OMIT_EMPTY_SCALAR_KEYS } from './json-schema-props.ts';

/** Resolves a `$ref` to the referenced schema, itself not yet flattened. */
export type ReferenceResolver = (ref: string) => JSONSchemaProps;

/** Reports a conflict flattening cannot resolve; `ref` names the type at fault when one is. */
export type ConflictReporter = (message: string, ref?: string) => void;

const DOC_KEYS = new Set(['title', 'description', 'example', 'externalDocs']);
/** Go pointer fields: two set values conflict even when equal (min/maxProperties aside). */
const POINTER_KEYS = new Set([
  'maximum',
  'minimum',
  'multipleOf',
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'default',
  'items',
]);

/**
 * Replaces every `$ref` by the referenced schema (the field's own description, title, example and
 * docs winning over the type's), then merges `allOf` entries (embedded types, field-over-type
 * validations) into their schema, with controller-gen's rules for conflicts.
 */
export function flattenSchema(
  schema: JSONSchemaProps,
  resolve: ReferenceResolver,
  conflict: ConflictReporter,
): JSONSchemaProps {
  const resolved = resolveReferences(structuredClone(schema), resolve, new Set(), conflict);
  mergeAllOf(resolved, conflict);
  return resolved;
}

/** `expanding` holds the refs being expanded above this schema: a structural schema cannot recurse. */
function resolveReferences(
  schema: JSONSchemaProps,
  resolve: ReferenceResolver,
  expanding: ReadonlySet<string>,
  conflict: ConflictReporter,
): JSONSchemaProps {
  const { $ref: ref, ...rest } = schema;
  if (ref !== undefined && expanding.has(ref)) {
    conflict(`type ${ref.split('#').at(-1) ?? ref} refers to itself; CRD schemas cannot be recursive`, ref);
    return rest;
  }
  const inside = ref === undefined ? expanding : new Set([...expanding, ref]);
  const result = ref === undefined ? schema : preserveFields(structuredClone(resolve(ref)), rest);
  forEachChild(result, (child) => resolveReferences(child, resolve, inside, conflict));
  return result;
}

/** The referenced type's schema and the referencing schema's rules side by side, docs from the referrer. */
function preserveFields(target: JSONSchemaProps, referrer: JSONSchemaProps): JSONSchemaProps {
  const { description, title, externalDocs, example, ...rules } = referrer;
  const result: JSONSchemaProps = { allOf: [target, rules] };
  const docs = { description, title, externalDocs, example };
  for (const key of ['description', 'title', 'externalDocs', 'example'] as const) {
    const value = docs[key] ?? target[key];
    if (value !== undefined) (result as Record<string, unknown>)[key] = value;
  }
  return result;
}

function mergeAllOf(schema: JSONSchemaProps, conflict: ConflictReporter): void {
  const entries = schema.allOf;
  if (entries) {
    delete schema.allOf;
    for (const entry of entries) mergeInto(schema, entry, conflict);
  }
  forEachChild(schema, (child) => {
    mergeAllOf(child, conflict);
    return child;
  });
}

function mergeInto(dst: JSONSchemaProps, src: JSONSchemaProps, conflict: ConflictReporter): void {
  for (const embedded of src.allOf ?? []) mergeInto(dst, embedded, conflict);
  const target = dst as Record<string, unknown>;
  const dstRemainder: Record<string, unknown> = {};
  const srcRemainder: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(src)) {
    if (key === 'allOf' || DOC_KEYS.has(key) || isZero(key, value)) continue;
    if (key === 'enum') {
      if (isZero(key, dst.enum)) dst.enum = structuredClone(src.enum);
      continue;
    }
    const existing = target[key];
    if (isZero(key, existing)) target[key] = structuredClone(value);
    else if (POINTER_KEYS.has(key) || !isDeepStrictEqual(existing, value)) {
      if (mergeConflict(dst, key, value, conflict)) {
        dstRemainder[key] = existing;
        srcRemainder[key] = value;
      }
    }
  }
  for (const key of Object.keys(srcRemainder)) Reflect.deleteProperty(target, key);
  if (Object.keys(srcRemainder).length > 0) dst.allOf = [...(dst.allOf ?? []), dstRemainder, srcRemainder];
  if (dst.required) dst.required = [...new Set(dst.required)].sort();
}

/** Resolves a key set on both sides; true when both values must be kept, hoisted into `allOf`. */
function mergeConflict(
  dst: JSONSchemaProps,
  key: string,
  value: unknown,
  conflict: ConflictReporter,
): boolean {
  const target = dst as Record<string, unknown>;
  switch (key) {
    case 'properties': {
      const properties = dst.properties ?? {};
      for (const [name, schema] of Object.entries(value as Record<string, JSONSchemaProps>)) {
        const existing = properties[name];
        if (existing) mergeInto(existing, schema, conflict);
        else properties[name] = structuredClone(schema);
      }
      return false;
    }
    case 'required':
      dst.required = [...(dst.required ?? []), ...(value as string[])];
      return false;
    case 'minProperties':
    case 'maxProperties':
      return target[key] !== value;
    case 'type':
      conflict(`conflicting types in allOf branches in schema: ${String(dst.type)} vs ${String(value)}`);
      return false;
    case 'additionalProperties':
      if (typeof value === 'object' && typeof dst.additionalProperties === 'object') {
        mergeInto(dst.additionalProperties, value as JSONSchemaProps, conflict);
      }
      return false;
    case 'x-kubernetes-validations':
      dst['x-kubernetes-validations'] = [...(value as []), ...(dst['x-kubernetes-validations'] ?? [])];
      return false;
    case 'x-kubernetes-preserve-unknown-fields':
    case 'x-kubernetes-map-type':
    case 'x-kubernetes-list-type':
    case 'x-kubernetes-list-map-keys':
      target[key] = structuredClone(value);
      return false;
    default:
      return true;
  }
}

/** Go's zero values (unset; false and '' for plain fields); flattening never copies them. */
function isZero(key: string, value: unknown): boolean {
  return value === undefined || ((value === false || value === '') && OMIT_EMPTY_SCALAR_KEYS.has(key));
}

function forEachChild(schema: JSONSchemaProps, visit: (child: JSONSchemaProps) => JSONSchemaProps): void {
  if (schema.properties) {
    for (const [name, child] of Object.entries(schema.properties)) schema.properties[name] = visit(child);
  }
  if (schema.items) schema.items = visit(schema.items);
  if (typeof schema.additionalProperties === 'object')
    schema.additionalProperties = visit(schema.additionalProperties);
  if (schema.allOf) schema.allOf = schema.allOf.map(visit);
  if (schema.anyOf) schema.anyOf = schema.anyOf.map(visit);
}
