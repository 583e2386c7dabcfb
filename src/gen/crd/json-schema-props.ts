import type { JsonValue } from '../../markers/index.ts';

/** One CEL rule of `x-kubernetes-validations`. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/**
 * A structural OpenAPI v3 schema as a CRD holds it (apiextensions/v1 JSONSchemaProps), keyed by the
 * JSON names so it serialises as is. `$ref` only lives between formatting and flattening.
 */
export interface JSONSchemaProps {
  $ref?: string;
  type?: string;
  format?: string;
  title?: string;
  description?: string;
  default?: JsonValue;
  example?: JsonValue;
  enum?: JsonValue[];
  maximum?: number;
  minimum?: number;
  exclusiveMaximum?: boolean;
  exclusiveMinimum?: boolean;
  multipleOf?: number;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  items?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  nullable?: boolean;
  externalDocs?: { url?: string; description?: string };
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}

/** Keys whose Go fields are plain bools or strings with `omitempty`: false and '' mean unset. */
export const OMIT_EMPTY_SCALAR_KEYS: ReadonlySet<string> = new Set([
  'type',
  'format',
  'title',
  'description',
  'pattern',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'uniqueItems',
  'nullable',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-type',
  'x-kubernetes-map-type',
]);
