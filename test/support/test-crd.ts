import type { JSONSchemaProps } from '../../src/gen/crd/json-schema-props.ts';
import type { ComparedCrd } from '../../src/gen/compat/index.ts';

/** A version of a test CRD: its schema, served and storage unless said otherwise. */
export interface TestVersion {
  readonly name: string;
  readonly schema: JSONSchemaProps;
  readonly served?: boolean;
  readonly storage?: boolean;
}

/** A CRD `widgets.example.org` with these versions. */
export function testCrd(
  versions: readonly TestVersion[],
  extra: { scope?: string; storedVersions?: string[]; conversion?: string } = {},
): ComparedCrd {
  return {
    metadata: { name: 'widgets.example.org' },
    spec: {
      scope: extra.scope ?? 'Namespaced',
      versions: versions.map((v, i) => ({
        name: v.name,
        served: v.served ?? true,
        storage: v.storage ?? i === versions.length - 1,
        schema: { openAPIV3Schema: v.schema },
      })),
      ...(extra.conversion === undefined ? {} : { conversion: { strategy: extra.conversion } }),
    },
    ...(extra.storedVersions === undefined ? {} : { status: { storedVersions: extra.storedVersions } }),
  };
}

/** An object schema whose `spec` has these properties (and `required`, when given). */
export function specSchema(
  properties: Record<string, JSONSchemaProps>,
  required?: string[],
): JSONSchemaProps {
  return {
    type: 'object',
    properties: {
      spec: { type: 'object', properties, ...(required === undefined ? {} : { required }) },
    },
  };
}

/** A one-version CRD whose `spec.field` is `field`. */
export function fieldCrd(field: JSONSchemaProps): ComparedCrd {
  return testCrd([{ name: 'v1', schema: specSchema({ field }) }]);
}
