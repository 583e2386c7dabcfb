import { isDeepStrictEqual } from 'node:util';
import type { JsonValue } from '../../markers/index.ts';
import type { JSONSchemaProps } from './json-schema-props.ts';
import { formatProblem } from './value-formats.ts';

/**
 * Why `value` does not validate against `schema`, each problem prefixed by the path inside the
 * value (`.ports[0]: ...`); empty when it validates. Checks what the API server's OpenAPI validation
 * checks (type, nullability, enum, bounds, lengths, pattern, format, required and unknown
 * properties); CEL rules are left to the API server.
 *
 * @example
 * valueProblems(0, { type: 'integer', minimum: 1 }); // [': should be greater than or equal to 1']
 */
export function valueProblems(value: JsonValue, schema: JSONSchemaProps, at = ''): string[] {
  if (value === null) return schema.nullable === true ? [] : [`${at}: must not be null`];
  if (schema['x-kubernetes-int-or-string'] === true) {
    if (typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value)))
      return scalarProblems(value, schema, at);
    return [`${at}: must be an integer or a string`];
  }
  const typeProblem = typeMismatch(value, schema.type);
  if (typeProblem !== undefined) return [`${at}: ${typeProblem}`];
  if (Array.isArray(value)) return arrayProblems(value, schema, at);
  if (typeof value === 'object') return objectProblems(value, schema, at);
  return scalarProblems(value, schema, at);
}

function typeMismatch(value: JsonValue, type: string | undefined): string | undefined {
  const actual = Array.isArray(value) ? 'array' : typeof value;
  switch (type) {
    case undefined:
      return undefined;
    case 'integer':
      return Number.isInteger(value) ? undefined : `must be of type integer, not ${describe(value)}`;
    case 'number':
    case 'string':
    case 'boolean':
    case 'object':
    case 'array':
      return actual === type ? undefined : `must be of type ${type}, not ${describe(value)}`;
    default:
      return undefined;
  }
}

function describe(value: JsonValue): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function enumProblems(value: JsonValue, schema: JSONSchemaProps, at: string): string[] {
  if (schema.enum === undefined || schema.enum.some((allowed) => isDeepStrictEqual(allowed, value)))
    return [];
  const allowed = schema.enum.map((v) => JSON.stringify(v)).join(', ');
  return [`${at}: must be one of ${allowed}`];
}

function scalarProblems(value: string | number | boolean, schema: JSONSchemaProps, at: string): string[] {
  const problems = enumProblems(value, schema, at);
  if (typeof value === 'number') problems.push(...numberProblems(value, schema).map((p) => `${at}: ${p}`));
  if (typeof value === 'string') problems.push(...stringProblems(value, schema).map((p) => `${at}: ${p}`));
  const format = schema.format === undefined ? undefined : formatProblem(value, schema.format);
  if (format !== undefined) problems.push(`${at}: ${format}`);
  return problems;
}

function numberProblems(value: number, schema: JSONSchemaProps): string[] {
  const problems: string[] = [];
  const { maximum, minimum, multipleOf } = schema;
  if (maximum !== undefined) {
    if (schema.exclusiveMaximum === true && value >= maximum) problems.push(`should be less than ${maximum}`);
    else if (value > maximum) problems.push(`should be less than or equal to ${maximum}`);
  }
  if (minimum !== undefined) {
    if (schema.exclusiveMinimum === true && value <= minimum)
      problems.push(`should be greater than ${minimum}`);
    else if (value < minimum) problems.push(`should be greater than or equal to ${minimum}`);
  }
  if (multipleOf !== undefined && !isMultipleOf(value, multipleOf, schema.type))
    problems.push(`should be a multiple of ${multipleOf}`);
  return problems;
}

/**
 * As kube-openapi decides it: an integer value (the API server reads whole JSON numbers as integers)
 * against the factor cut to an integer, exactly; any other value by a quotient that is an integer
 * within a relative error of 1e-9, so that 0.07 is a multiple of 0.01. A factor the value's type
 * cannot hold, or one that is not positive, is left to the API server.
 */
function isMultipleOf(value: number, factor: number, type: string | undefined): boolean {
  if (factor <= 0 || (type === 'integer' && !Number.isInteger(factor))) return true;
  if (Number.isInteger(value)) {
    const whole = Math.trunc(factor);
    return whole === 0 || value % whole === 0;
  }
  return isNearInteger(factor < 1 ? (1 / factor) * value : value / factor);
}

/** go-openapi's IsFloat64AJSONInteger. */
function isNearInteger(value: number): boolean {
  if (!Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER) return false;
  const rounded = Math.round(value);
  if (value === rounded) return true;
  if (rounded === 0) return false;
  return Math.abs(value - rounded) < 1e-9 * Math.abs(rounded);
}

function stringProblems(value: string, schema: JSONSchemaProps): string[] {
  const problems: string[] = [];
  // The API server counts characters (runes), not bytes.
  const length = [...value].length;
  if (schema.maxLength !== undefined && length > schema.maxLength)
    problems.push(`should be at most ${schema.maxLength} chars long`);
  if (schema.minLength !== undefined && length < schema.minLength)
    problems.push(`should be at least ${schema.minLength} chars long`);
  const pattern = schema.pattern === undefined ? undefined : compilePattern(schema.pattern);
  if (pattern !== undefined && !pattern.test(value))
    problems.push(`should match ${JSON.stringify(schema.pattern)}`);
  return problems;
}

/**
 * A pattern as Go's RE2 reads it, in JavaScript: `.` is any character but `\n` (JavaScript also
 * stops at `\r`, U+2028 and U+2029), `\s` is ASCII space only (JavaScript's takes in U+00A0 and
 * others). A pattern that cannot be carried over exactly is left to the API server.
 */
function compilePattern(pattern: string): RegExp | undefined {
  const source = re2Source(pattern);
  if (source === undefined) return undefined;
  try {
    return new RegExp(source, 'u');
  } catch {
    return undefined;
  }
}

const RE2_SPACE = '\\t\\n\\f\\r ';

function re2Source(pattern: string): string | undefined {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      i++;
      if (next === 's') out += inClass ? RE2_SPACE : `[${RE2_SPACE}]`;
      else if (next === 'S') {
        if (inClass) return undefined;
        out += `[^${RE2_SPACE}]`;
      } else out += `\\${next}`;
    } else if (inClass) {
      // RE2's POSIX classes ([[:alpha:]]) read otherwise in JavaScript.
      if (char === '[' && pattern[i + 1] === ':') return undefined;
      if (char === ']') inClass = false;
      out += char;
    } else if (char === '[') {
      inClass = true;
      out += char;
      // A `]` first in a class (after an optional `^`) is a literal in RE2.
      if (pattern[i + 1] === '^') out += pattern[++i];
      if (pattern[i + 1] === ']') {
        out += '\\]';
        i++;
      }
    } else out += char === '.' ? '[^\\n]' : char;
  }
  return out;
}

function arrayProblems(value: JsonValue[], schema: JSONSchemaProps, at: string): string[] {
  const problems = enumProblems(value, schema, at);
  if (schema.maxItems !== undefined && value.length > schema.maxItems)
    problems.push(`${at}: should have at most ${schema.maxItems} items`);
  if (schema.minItems !== undefined && value.length < schema.minItems)
    problems.push(`${at}: should have at least ${schema.minItems} items`);
  const duplicate = value.findIndex((item, i) => value.slice(0, i).some((o) => isDeepStrictEqual(o, item)));
  if (schema.uniqueItems === true && duplicate >= 0) problems.push(`${at}[${duplicate}]: duplicate item`);
  const items = schema.items;
  if (items !== undefined)
    value.forEach((item, i) => problems.push(...valueProblems(item, items, `${at}[${i}]`)));
  return problems;
}

function objectProblems(value: { [key: string]: JsonValue }, schema: JSONSchemaProps, at: string): string[] {
  const problems = enumProblems(value, schema, at);
  const keys = Object.keys(value);
  if (schema.maxProperties !== undefined && keys.length > schema.maxProperties)
    problems.push(`${at}: should have at most ${schema.maxProperties} properties`);
  if (schema.minProperties !== undefined && keys.length < schema.minProperties)
    problems.push(`${at}: should have at least ${schema.minProperties} properties`);
  for (const name of schema.required ?? []) if (!(name in value)) problems.push(`${at}.${name}: required`);
  const embedded = schema['x-kubernetes-embedded-resource'] === true;
  if (embedded) problems.push(...embeddedResourceProblems(value, at));
  const keepsUnknown = schema['x-kubernetes-preserve-unknown-fields'] === true;
  for (const [name, child] of Object.entries(value)) {
    const property = schema.properties?.[name];
    const additional = schema.additionalProperties;
    if (property !== undefined) problems.push(...valueProblems(child, property, `${at}.${name}`));
    else if (typeof additional === 'object')
      problems.push(...valueProblems(child, additional, `${at}.${name}`));
    else if (embedded && TYPE_AND_OBJECT_META.has(name)) continue;
    else if (!keepsUnknown && additional !== true && schema.properties !== undefined)
      problems.push(`${at}.${name}: unknown field, which the API server would prune`);
  }
  return problems;
}

/** What an embedded resource keeps whatever its schema lists: the API server checks them itself. */
const TYPE_AND_OBJECT_META = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * An embedded resource (`x-kubernetes-embedded-resource`) needs an apiVersion and a kind, as the API
 * server requires them: a group/version and a kind that is a DNS-1035 label once lowercased.
 */
function embeddedResourceProblems(value: { [key: string]: JsonValue }, at: string): string[] {
  const problems: string[] = [];
  const { apiVersion, kind, metadata } = value;
  if (apiVersion === undefined) problems.push(`${at}.apiVersion: required`);
  else if (typeof apiVersion !== 'string' || apiVersion === '' || apiVersion.split('/').length > 2)
    problems.push(`${at}.apiVersion: must be a group/version, as "apps/v1" or "v1"`);
  if (kind === undefined) problems.push(`${at}.kind: required`);
  else if (typeof kind !== 'string' || !/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/.test(kind.toLowerCase()))
    problems.push(`${at}.kind: must be a kind name, as "ConfigMap"`);
  if (
    metadata !== undefined &&
    (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
  )
    problems.push(`${at}.metadata: must be an object`);
  return problems;
}
