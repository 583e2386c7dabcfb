import type { JSONSchemaProps } from '../../gen/crd/json-schema-props.ts';
import type { FieldShape, ValueShape } from './kind-shape.ts';

/**
 * TypeScript source text of values for scaffolded code: a sample the API server admits (for the
 * webhook test's objects) and a zero value (for a conversion to fill a field the other version does
 * not have). Undefined where no value can be written without knowing more (a pattern, a CEL rule,
 * a Kubernetes type): the scaffold then leaves that use out.
 */

/** Runtime scalars a sample can be written for: `Quantity`, `Time`, ... (see src/runtime/api/types.ts). */
const KNOWN_SAMPLES: Readonly<Record<string, string>> = {
  Quantity: "'1'",
  IntOrString: '1',
  Time: "'2024-01-01T00:00:00Z'",
  MicroTime: "'2024-01-01T00:00:00.000000Z'",
  Duration: "'1s'",
};

const KNOWN_ZEROS: Readonly<Record<string, string>> = {
  Quantity: "'0'",
  IntOrString: '0',
  Time: "'1970-01-01T00:00:00Z'",
  MicroTime: "'1970-01-01T00:00:00.000000Z'",
  Duration: "'0s'",
};

/** What the sample of an object leaves out or sets to a value of the caller's. */
export interface SampleOverrides {
  readonly [field: string]: string | null;
}

/**
 * A value of `type` that `schema` admits: its default when it has one (the value its author chose),
 * else the first enum value, else a small value within its bounds. Objects get their required
 * fields only, with `overrides` (source text, or null to leave a field out) on top. Strings are
 * `text` (padded or cut to the schema's lengths).
 */
export function sampleLiteral(
  type: ValueShape,
  schema: JSONSchemaProps,
  overrides: SampleOverrides = {},
  text = 'example',
): string | undefined {
  if (type.kind === 'object') return objectSample(type.fields, schema, overrides);
  if (type.kind === 'nullable') return sampleLiteral(type.inner, schema, overrides, text);
  if (schema.default !== undefined && fits(type, schema.default)) return literal(schema.default);
  if (schema.enum?.[0] !== undefined && fits(type, schema.enum[0])) return literal(schema.enum[0]);
  switch (type.kind) {
    case 'enum':
      return type.values[0] === undefined ? undefined : literal(type.values[0]);
    case 'string':
      return stringSample(schema, text);
    case 'integer':
    case 'number':
      return numberSample(schema, type.kind === 'integer');
    case 'boolean':
      return 'true';
    case 'unknown':
      return '{}';
    case 'array':
      return arraySample(type.items, schema);
    case 'map':
      return (schema.minProperties ?? 0) > 0 ? undefined : '{}';
    case 'opaque':
      return KNOWN_SAMPLES[type.name];
  }
}

/** The required fields of an object (in TypeScript's or the schema's eyes), with the overrides. */
function objectSample(
  fields: readonly FieldShape[],
  schema: JSONSchemaProps,
  overrides: SampleOverrides,
): string | undefined {
  if (!admitsAnyObject(schema)) return undefined;
  const required = new Set(schema.required ?? []);
  const entries: string[] = [];
  for (const field of fields) {
    const override = overrides[field.name];
    if (override === null) continue;
    if (override !== undefined) {
      entries.push(`${propertyName(field.name)}: ${override}`);
      continue;
    }
    if (field.optional && !required.has(field.name)) continue;
    const value = sampleLiteral(field.type, field.schema);
    if (value === undefined) return undefined;
    entries.push(`${propertyName(field.name)}: ${value}`);
  }
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
}

/** Rules a sample cannot see through: CEL other than transition rules, property counts. */
function admitsAnyObject(schema: JSONSchemaProps): boolean {
  const rules = schema['x-kubernetes-validations'] ?? [];
  // A rule on oldSelf is checked on updates only: a new object passes it.
  return rules.every((r) => r.rule.includes('oldSelf')) && schema.minProperties === undefined;
}

function stringSample(schema: JSONSchemaProps, text: string): string | undefined {
  if (schema.pattern !== undefined || schema.format !== undefined) return undefined;
  if ((schema['x-kubernetes-validations'] ?? []).some((r) => !r.rule.includes('oldSelf'))) return undefined;
  return literal(text.padEnd(schema.minLength ?? 0, 'x').slice(0, schema.maxLength ?? Infinity));
}

function numberSample(schema: JSONSchemaProps, integer: boolean): string | undefined {
  if (schema.multipleOf !== undefined) return undefined;
  const step = integer ? 1 : 0.5;
  const low =
    schema.minimum === undefined ? -Infinity : schema.minimum + (schema.exclusiveMinimum ? step : 0);
  const high =
    schema.maximum === undefined ? Infinity : schema.maximum - (schema.exclusiveMaximum ? step : 0);
  const value = Math.min(Math.max(1, low), high);
  if (value < low || (integer && !Number.isInteger(value))) return undefined;
  return String(value);
}

function arraySample(items: ValueShape, schema: JSONSchemaProps): string | undefined {
  const count = schema.minItems ?? 0;
  if (count === 0) return '[]';
  // Several equal items would break uniqueness rules; one is enough for minItems 1.
  if (count > 1) return undefined;
  const item = sampleLiteral(items, schema.items ?? {});
  return item === undefined ? undefined : `[${item}]`;
}

/**
 * The value a field starts from when the other version has nothing for it, as Go's zero value:
 * its CRD default when it has one, else '', 0, false, [], {} or an object of zero values.
 */
export function zeroLiteral(type: ValueShape, schema: JSONSchemaProps): string | undefined {
  if (schema.default !== undefined && fits(type, schema.default)) return literal(schema.default);
  switch (type.kind) {
    case 'string':
      return "''";
    case 'integer':
    case 'number':
      return '0';
    case 'boolean':
      return 'false';
    case 'unknown':
    case 'map':
      return '{}';
    case 'array':
      return '[]';
    case 'nullable':
      return 'null';
    case 'enum':
      return type.values[0] === undefined ? undefined : literal(type.values[0]);
    case 'opaque':
      return KNOWN_ZEROS[type.name];
    case 'object': {
      const entries: string[] = [];
      for (const field of type.fields.filter((f) => !f.optional)) {
        const value = zeroLiteral(field.type, field.schema);
        if (value === undefined) return undefined;
        entries.push(`${propertyName(field.name)}: ${value}`);
      }
      return `{ ${entries.join(', ')} }`;
    }
  }
}

/** Whether a JSON value (a default, an enum value) is a value of the TypeScript type. */
function fits(type: ValueShape, value: unknown): boolean {
  switch (type.kind) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'enum':
      return type.values.includes(value as string);
    case 'nullable':
      return value === null || fits(type.inner, value);
    case 'unknown':
      return true;
    case 'array':
      return Array.isArray(value) && value.every((item) => fits(type.items, item));
    default:
      return false;
  }
}

/** A JSON value as TypeScript source, strings in single quotes as the project's Prettier writes them. */
export function literal(value: unknown): string {
  if (typeof value === 'string')
    return `'${JSON.stringify(value).slice(1, -1).replaceAll('\\"', '"').replaceAll("'", "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => `${propertyName(key)}: ${literal(item)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return JSON.stringify(value);
}

/** A property name in an object literal: quoted when it is not an identifier. */
export function propertyName(name: string): string {
  return isIdentifier(name) ? name : literal(name);
}

/** `obj.name`, or `obj['name']` for a name that is not an identifier; `?.` when `obj` may be undefined. */
export function member(obj: string, name: string, optionalChain = false): string {
  if (isIdentifier(name)) return `${obj}${optionalChain ? '?.' : '.'}${name}`;
  return `${obj}${optionalChain ? '?.' : ''}[${literal(name)}]`;
}

/** Whether a field name can follow a `.` in source text. */
export function isIdentifier(name: string): boolean {
  return /^[A-Za-z_$][\w$]*$/.test(name);
}
