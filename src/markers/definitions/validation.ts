import type { MarkerDefinition } from '../definition.ts';
import { fieldsMarker, flagMarker, valueMarker } from '../definition.ts';

const category = 'CRD validation';
const on = ['field', 'type'] as const;

function validation(name: string, help: string) {
  return { name: `kubebuilder:validation:${name}`, targets: on, category, help };
}

/**
 * The `+kubebuilder:validation:<Name>` markers, valid on fields and types. Each also exists in an
 * `items:` form (see `itemsValidationMarkers`) that applies to the items of an array.
 */
export const validationMarkers = {
  Maximum: valueMarker(validation('Maximum', 'the maximum numeric value'), { type: 'number' }),
  Minimum: valueMarker(validation('Minimum', 'the minimum numeric value; negative numbers are supported'), {
    type: 'number',
  }),
  ExclusiveMaximum: valueMarker(validation('ExclusiveMaximum', 'the maximum is "up to", not including'), {
    type: 'bool',
  }),
  ExclusiveMinimum: valueMarker(validation('ExclusiveMinimum', 'the minimum is "up to", not including'), {
    type: 'bool',
  }),
  MultipleOf: valueMarker(validation('MultipleOf', 'the value must be a multiple of this one'), {
    type: 'number',
  }),
  MinProperties: valueMarker(validation('MinProperties', 'the minimum number of keys of an object'), {
    type: 'int',
  }),
  MaxProperties: valueMarker(validation('MaxProperties', 'the maximum number of keys of an object'), {
    type: 'int',
  }),
  MaxLength: valueMarker(validation('MaxLength', 'the maximum length of a string'), { type: 'int' }),
  MinLength: valueMarker(validation('MinLength', 'the minimum length of a string'), { type: 'int' }),
  Pattern: valueMarker(validation('Pattern', 'a regular expression the string must match'), {
    type: 'string',
  }),
  MaxItems: valueMarker(validation('MaxItems', 'the maximum length of a list'), { type: 'int' }),
  MinItems: valueMarker(validation('MinItems', 'the minimum length of a list'), { type: 'int' }),
  UniqueItems: valueMarker(validation('UniqueItems', 'all items of the list must be unique'), {
    type: 'bool',
  }),
  Enum: valueMarker(validation('Enum', 'the exact values allowed, e.g. Enum=A;B;C'), {
    type: { list: 'any' },
  }),
  Format: valueMarker(validation('Format', 'an OpenAPI format such as date-time, int32, byte'), {
    type: 'string',
  }),
  Type: valueMarker(validation('Type', 'overrides the schema type'), { type: 'string' }),
  XPreserveUnknownFields: flagMarker(
    validation('XPreserveUnknownFields', 'keeps fields the schema does not declare (no pruning)'),
  ),
  XEmbeddedResource: flagMarker(
    validation('XEmbeddedResource', 'the value is a Kubernetes object with its own apiVersion and kind'),
  ),
  XIntOrString: flagMarker(validation('XIntOrString', 'the value is an integer or a string')),
  XValidation: fieldsMarker(validation('XValidation', 'a CEL validation rule (x-kubernetes-validations)'), {
    rule: { type: 'string' },
    message: { type: 'string', optional: true },
    messageExpression: { type: 'string', optional: true },
    reason: { type: 'string', optional: true },
    fieldPath: { type: 'string', optional: true },
    optionalOldSelf: { type: 'bool', optional: true },
  }),
} as const;

type ItemsMarkers = { readonly [K in keyof typeof validationMarkers]: (typeof validationMarkers)[K] };

/** The `+kubebuilder:validation:items:<Name>` forms: the same markers, applied to array items. */
export const itemsValidationMarkers: ItemsMarkers = Object.fromEntries(
  Object.entries(validationMarkers).map(([key, definition]) => [key, itemsForm(definition)]),
) as unknown as ItemsMarkers;

function itemsForm(definition: MarkerDefinition): MarkerDefinition {
  return {
    ...definition,
    name: definition.name.replace('kubebuilder:validation:', 'kubebuilder:validation:items:'),
    help: `for array items: ${definition.help}`,
  };
}
