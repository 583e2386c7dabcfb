import type { JSONSchemaProps } from './json-schema-props.ts';

/*
 * metav1.TypeMeta's fields as controller-gen writes them at the root of every kind, whatever the
 * TypeScript declares (a literal type, a plain string): the API server owns their values.
 */
const API_VERSION: JSONSchemaProps = {
  description:
    'APIVersion defines the versioned schema of this representation of an object.\n' +
    'Servers should convert recognized schemas to the latest internal value, and\n' +
    'may reject unrecognized values.\n' +
    'More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
  type: 'string',
};

const KIND: JSONSchemaProps = {
  description:
    'Kind is a string value representing the REST resource this object represents.\n' +
    'Servers may infer this from the endpoint the client submits requests to.\n' +
    'Cannot be updated.\n' +
    'In CamelCase.\n' +
    'More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
  type: 'string',
};

const ROOT_FIELDS = ['apiVersion', 'kind', 'metadata'];

/**
 * The root schema of a kind as a CRD needs it: TypeMeta's apiVersion and kind, `metadata` as a bare
 * object (the API server validates metadata itself), and none of the three required.
 */
export function withRootFields(schema: JSONSchemaProps): JSONSchemaProps {
  const properties = {
    ...schema.properties,
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { type: 'object' },
  };
  const required = (schema.required ?? []).filter((name) => !ROOT_FIELDS.includes(name));
  const root: JSONSchemaProps = { ...schema, properties };
  if (required.length > 0) root.required = required;
  else delete root.required;
  return root;
}
