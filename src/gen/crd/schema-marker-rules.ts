import type { JsonValue, MarkerDefinition } from '../../markers/index.ts';
import { fieldMarkers, fieldOrTypeMarkers, topologyMarkers, typeOnlyMarkers } from '../../markers/index.ts';
import { itemsValidationMarkers, validationMarkers } from '../../markers/index.ts';
import type { JSONSchemaProps } from './json-schema-props.ts';

/**
 * How a marker changes a schema: `apply` edits it or returns why it cannot (the marker does not fit
 * the schema's type). Lower priorities apply first, as in controller-gen (Type and XIntOrString
 * before the checks that read the type; defaults last).
 */
export interface SchemaMarkerRule {
  readonly priority: number;
  readonly apply: (value: never, schema: JSONSchemaProps) => string | undefined;
}

const DEFAULT_PRIORITY = 10;

function rule<V>(
  apply: (value: V, schema: JSONSchemaProps) => string | undefined,
  priority = DEFAULT_PRIORITY,
) {
  return { priority, apply } as SchemaMarkerRule;
}

const isNumeric = (s: JSONSchemaProps): boolean => s.type === 'integer' || s.type === 'number';
const isTextual = (s: JSONSchemaProps): boolean =>
  s.type === 'string' || s['x-kubernetes-int-or-string'] === true;
const found = (s: JSONSchemaProps): string => JSON.stringify(s.type ?? '');

function numericBound(key: 'maximum' | 'minimum' | 'multipleOf', label: string) {
  return rule<number>((value, schema) => {
    if (!isNumeric(schema)) return `must apply ${label} to a numeric value, found ${found(schema)}`;
    if (schema.type === 'integer' && !Number.isInteger(value)) {
      return `cannot apply non-integral ${label} validation (${value}) to integer value`;
    }
    schema[key] = value;
    return undefined;
  });
}

function exclusive(key: 'exclusiveMaximum' | 'exclusiveMinimum') {
  return rule<boolean>((value, schema) => {
    if (!isNumeric(schema))
      return `must apply ${key.toLowerCase()} to a numeric value, found ${found(schema)}`;
    schema[key] = value;
    return undefined;
  });
}

function textual(key: 'maxLength' | 'minLength' | 'pattern') {
  return rule<number | string>((value, schema) => {
    if (!isTextual(schema))
      return `must apply ${key.toLowerCase()} to a textual value, found type ${found(schema)}`;
    (schema as Record<string, unknown>)[key] = value;
    return undefined;
  });
}

function ofType(type: 'array' | 'object', key: keyof JSONSchemaProps) {
  return rule<number | boolean>((value, schema) => {
    if (schema.type !== type) return `must apply ${key.toLowerCase()} to an ${type}, found ${found(schema)}`;
    (schema as Record<string, unknown>)[key] = value;
    return undefined;
  });
}

function set(key: keyof JSONSchemaProps, value: unknown, priority = DEFAULT_PRIORITY) {
  return rule<unknown>((_, schema) => {
    (schema as Record<string, unknown>)[key] = value;
    return undefined;
  }, priority);
}

function addValidation(
  schema: JSONSchemaProps,
  validation: NonNullable<JSONSchemaProps['x-kubernetes-validations']>[number],
) {
  schema['x-kubernetes-validations'] = [...(schema['x-kubernetes-validations'] ?? []), validation];
}

const REASONS = ['FieldValueRequired', 'FieldValueInvalid', 'FieldValueForbidden', 'FieldValueDuplicate'];

interface XValidationValue {
  rule: string;
  message?: string | undefined;
  messageExpression?: string | undefined;
  reason?: string | undefined;
  fieldPath?: string | undefined;
  optionalOldSelf?: boolean | undefined;
}

const xValidation = rule<XValidationValue>((value, schema) => {
  if (value.reason !== undefined && value.reason !== '' && !REASONS.includes(value.reason)) {
    return `invalid reason ${value.reason}, valid values are ${REASONS.join(', ')}`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined && v !== '');
  addValidation(schema, Object.fromEntries(entries) as unknown as XValidationValue);
  return undefined;
});

function oneOf(priority: number, toRule: (fields: string[]) => { rule: string; message: string }) {
  return rule<string[]>((fields, schema) => {
    if (fields.length > 0) addValidation(schema, toRule(fields));
    return undefined;
  }, priority);
}

const has = (fields: string[], join: string, each: (f: string) => string): string =>
  fields.map(each).join(join);
const goList = (fields: string[]): string => `[${fields.join(' ')}]`;

const listType = rule<string>((value, schema) => {
  if (schema.type !== 'array') return `must apply listType to an array, found ${found(schema)}`;
  if (!['map', 'set', 'atomic'].includes(value)) return 'ListType must be either "map", "set" or "atomic"';
  schema['x-kubernetes-list-type'] = value;
  return undefined;
}, DEFAULT_PRIORITY - 1);

const listMapKey = rule<string>((value, schema) => {
  if (schema.type !== 'array') return `must apply listMapKey to an array, found ${found(schema)}`;
  if (schema['x-kubernetes-list-type'] !== 'map') return 'must apply listMapKey to an associative-list';
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  if (!keys.includes(value)) schema['x-kubernetes-list-map-keys'] = [...keys, value];
  return undefined;
});

function mapOrStructType(label: 'mapType' | 'structType') {
  return rule<string>((value, schema) => {
    const fits = schema.type === 'object' || (label === 'structType' && schema.type === undefined);
    if (!fits) return `must apply ${label} to an object, found ${found(schema)}`;
    if (value !== 'atomic' && value !== 'granular') return `${label} must be either "granular" or "atomic"`;
    schema['x-kubernetes-map-type'] = value;
    return undefined;
  });
}

const k8sRequired = rule<true>((_, schema) => {
  if (schema.type === 'string') schema.minLength ??= 1;
  else if (schema.type === 'array') schema.minItems ??= 1;
  else if (schema.type === 'object' || schema.$ref !== undefined) schema.minProperties ??= 1;
  return undefined;
});

/**
 * On a type, `+k8s:enum` asks for values only a union of literals can give in TypeScript. Decided
 * from the type alone, before any other marker (an `Enum=` beside it) edits the schema, as
 * controller-gen decides it from the type's constants.
 */
const k8sEnumOnType = rule<true>((_, schema) => {
  if (schema.enum !== undefined || schema.$ref !== undefined) return undefined;
  if (schema.type !== 'string') return `enum type must be a string, not ${found(schema)}`;
  return (
    'a `string` alias has no values to collect into an enum, as Go constants would give; write the ' +
    "values as a union of string literals instead, e.g. `type Phase = 'Pending' | 'Running'`"
  );
}, DEFAULT_PRIORITY - 2);

const defaultValue = (priority: number) =>
  rule<JsonValue>((value, schema) => {
    if (value === null && priority === 9) return undefined;
    const isEmptyObject =
      typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
    schema.default = schema.type === 'array' && isEmptyObject ? [] : value;
    return undefined;
  }, priority);

const validationRules = {
  Maximum: numericBound('maximum', 'maximum'),
  Minimum: numericBound('minimum', 'minimum'),
  ExclusiveMaximum: exclusive('exclusiveMaximum'),
  ExclusiveMinimum: exclusive('exclusiveMinimum'),
  MultipleOf: numericBound('multipleOf', 'multipleof'),
  MinProperties: ofType('object', 'minProperties'),
  MaxProperties: ofType('object', 'maxProperties'),
  MaxLength: textual('maxLength'),
  MinLength: textual('minLength'),
  Pattern: textual('pattern'),
  MaxItems: ofType('array', 'maxItems'),
  MinItems: ofType('array', 'minItems'),
  UniqueItems: ofType('array', 'uniqueItems'),
  Enum: rule<JsonValue[]>((value, schema) => void (schema.enum = value)),
  Format: rule<string>((value, schema) => void (schema.format = value)),
  Type: rule<string>((value, schema) => void (schema.type = value), DEFAULT_PRIORITY - 1),
  XPreserveUnknownFields: set('x-kubernetes-preserve-unknown-fields', true),
  XEmbeddedResource: set('x-kubernetes-embedded-resource', true),
  XIntOrString: set('x-kubernetes-int-or-string', true, DEFAULT_PRIORITY - 1),
  XValidation: xValidation,
} satisfies Record<keyof typeof validationMarkers, SchemaMarkerRule>;

/** Every marker that changes a schema, with its rule. Items forms share the rules of their base marker. */
export const schemaMarkerRules: ReadonlyMap<MarkerDefinition, SchemaMarkerRule> = new Map<
  MarkerDefinition,
  SchemaMarkerRule
>([
  ...Object.entries(validationRules).flatMap(([key, value]): [MarkerDefinition, SchemaMarkerRule][] => [
    [validationMarkers[key as keyof typeof validationMarkers], value],
    [itemsValidationMarkers[key as keyof typeof validationMarkers], value],
  ]),
  [fieldMarkers.nullable, set('nullable', true)],
  [fieldMarkers.default, defaultValue(10)],
  [fieldMarkers.k8sDefault, defaultValue(9)],
  [fieldMarkers.example, rule<JsonValue>((value, schema) => void (schema.example = value))],
  [fieldMarkers.EmbeddedResource, set('x-kubernetes-embedded-resource', true)],
  [
    fieldMarkers.immutable,
    rule<true>(
      (_, schema) => void addValidation(schema, { rule: 'self == oldSelf', message: 'field is immutable' }),
    ),
  ],
  [fieldMarkers.k8sRequired, k8sRequired],
  [fieldMarkers.k8sEnum, rule<true>(() => 'k8s:enum must be set on a type, not a field')],
  [typeOnlyMarkers.k8sEnum, k8sEnumOnType],
  [fieldMarkers.k8sMaxItems, validationRules.MaxItems],
  [fieldMarkers.k8sMinimum, validationRules.Minimum],
  [fieldMarkers.k8sMaximum, validationRules.Maximum],
  [fieldOrTypeMarkers.PreserveUnknownFields, set('x-kubernetes-preserve-unknown-fields', true)],
  [
    fieldOrTypeMarkers.title,
    rule<JsonValue>((value, schema) => {
      if (value === null) return undefined;
      if (typeof value !== 'string') return `expected string, got ${JSON.stringify(value)}`;
      schema.title = value;
      return undefined;
    }),
  ],
  [
    fieldOrTypeMarkers.externalDocs,
    rule<{ url: string; description?: string | undefined }>((value, schema) => {
      if (!URL.canParse(value.url))
        return `invalid url ${JSON.stringify(value.url)} in kubebuilder:externalDocs marker`;
      schema.externalDocs = {
        url: value.url,
        ...(value.description ? { description: value.description } : {}),
      };
      return undefined;
    }),
  ],
  [
    typeOnlyMarkers.AtMostOneOf,
    oneOf(DEFAULT_PRIORITY + 1, (f) => ({
      rule: `${has(f, '+', (x) => `(has(self.${x})?1:0)`)} <= 1`,
      message: `at most one of the fields in ${goList(f)} may be set`,
    })),
  ],
  [
    typeOnlyMarkers.ExactlyOneOf,
    oneOf(DEFAULT_PRIORITY + 2, (f) => ({
      rule: `${has(f, '+', (x) => `(has(self.${x})?1:0)`)} == 1`,
      message: `exactly one of the fields in ${goList(f)} must be set`,
    })),
  ],
  [
    typeOnlyMarkers.AtLeastOneOf,
    oneOf(DEFAULT_PRIORITY + 3, (f) => ({
      rule: has(f, '||', (x) => `has(self.${x})`),
      message: `at least one of the fields in ${goList(f)} must be set`,
    })),
  ],
  [topologyMarkers.listType, listType],
  [topologyMarkers.k8sListType, listType],
  [topologyMarkers.listMapKey, listMapKey],
  [topologyMarkers.k8sListMapKey, listMapKey],
  [topologyMarkers.mapType, mapOrStructType('mapType')],
  [topologyMarkers.structType, mapOrStructType('structType')],
]);
