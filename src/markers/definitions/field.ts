import { fieldsMarker, flagMarker, valueMarker } from '../definition.ts';

const category = 'CRD validation';

/** Markers that only make sense on a field: presence, defaults, examples, immutability. */
export const fieldMarkers = {
  Required: flagMarker({
    name: 'kubebuilder:validation:Required',
    targets: ['field'],
    category,
    help: 'the field is required (prefer +required)',
  }),
  Optional: flagMarker({
    name: 'kubebuilder:validation:Optional',
    targets: ['field'],
    category,
    help: 'the field is optional (prefer +optional)',
  }),
  required: flagMarker({ name: 'required', targets: ['field'], category, help: 'the field is required' }),
  optional: flagMarker({ name: 'optional', targets: ['field'], category, help: 'the field is optional' }),
  k8sRequired: flagMarker({
    name: 'k8s:required',
    targets: ['field'],
    category,
    help: 'the field is required and must not be empty',
  }),
  k8sOptional: flagMarker({
    name: 'k8s:optional',
    targets: ['field'],
    category,
    help: 'the field is optional',
  }),
  nullable: flagMarker({ name: 'nullable', targets: ['field'], category, help: 'the field may be null' }),
  default: valueMarker(
    {
      name: 'kubebuilder:default',
      targets: ['field'],
      category,
      help: 'the default value, e.g. default=3 or default={a,b}',
    },
    { type: 'any' },
  ),
  k8sDefault: valueMarker(
    { name: 'default', targets: ['field'], category, help: 'the default value as JSON, e.g. +default="x"' },
    { type: 'json' },
  ),
  example: valueMarker(
    { name: 'kubebuilder:example', targets: ['field'], category, help: 'an example value' },
    { type: 'any' },
  ),
  EmbeddedResource: flagMarker({
    name: 'kubebuilder:validation:EmbeddedResource',
    targets: ['field'],
    category,
    help: 'the value is a Kubernetes object with its own apiVersion and kind',
  }),
  Schemaless: flagMarker({
    name: 'kubebuilder:validation:Schemaless',
    targets: ['field'],
    category,
    help: 'emit no schema for the field (combine with Type/XPreserveUnknownFields)',
  }),
  immutable: flagMarker({
    name: 'k8s:immutable',
    targets: ['field'],
    category,
    help: 'the field cannot change once set',
  }),
  k8sMaxItems: valueMarker(
    { name: 'k8s:maxItems', targets: ['field'], category, help: 'the maximum length of a list' },
    { type: 'int' },
  ),
  k8sMinimum: valueMarker(
    { name: 'k8s:minimum', targets: ['field'], category, help: 'the minimum numeric value' },
    { type: 'number' },
  ),
  k8sMaximum: valueMarker(
    { name: 'k8s:maximum', targets: ['field'], category, help: 'the maximum numeric value' },
    { type: 'number' },
  ),
  // Declared so that a field carrying it is refused, as controller-gen refuses it, not ignored.
  k8sEnum: flagMarker({
    name: 'k8s:enum',
    targets: ['field'],
    category,
    help: 'refused on a field, as controller-gen refuses it: +k8s:enum belongs on a type',
  }),
} as const;

/** Markers valid on fields and types outside the `validation:` prefix. */
export const fieldOrTypeMarkers = {
  PreserveUnknownFields: flagMarker({
    name: 'kubebuilder:pruning:PreserveUnknownFields',
    targets: ['field', 'type'],
    category,
    help: 'keeps fields the schema does not declare (no pruning)',
  }),
  title: valueMarker(
    { name: 'kubebuilder:title', targets: ['field', 'type'], category, help: 'the schema title' },
    { type: 'any' },
  ),
  externalDocs: fieldsMarker(
    {
      name: 'kubebuilder:externalDocs',
      targets: ['field', 'type'],
      category: 'CRD',
      help: 'a link to external documentation',
    },
    { url: { type: 'string' }, description: { type: 'string', optional: true } },
  ),
} as const;

/** Markers valid only on types. */
export const typeOnlyMarkers = {
  k8sEnum: flagMarker({
    name: 'k8s:enum',
    targets: ['type'],
    category,
    help:
      "Go's way to make a string type an enum of its constants; in TypeScript a union of string " +
      "literals (`type Phase = 'Pending' | 'Running'`) already is the enum, so the marker is accepted " +
      'there and refused on a bare `string` alias',
  }),
  AtMostOneOf: valueMarker(
    {
      name: 'kubebuilder:validation:AtMostOneOf',
      targets: ['type'],
      category,
      help: 'at most one of these fields may be set',
    },
    { type: { list: 'string' } },
  ),
  ExactlyOneOf: valueMarker(
    {
      name: 'kubebuilder:validation:ExactlyOneOf',
      targets: ['type'],
      category,
      help: 'exactly one of these fields must be set',
    },
    { type: { list: 'string' } },
  ),
  AtLeastOneOf: valueMarker(
    {
      name: 'kubebuilder:validation:AtLeastOneOf',
      targets: ['type'],
      category,
      help: 'at least one of these fields must be set',
    },
    { type: { list: 'string' } },
  ),
} as const;
