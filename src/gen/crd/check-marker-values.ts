import type { DiagnosticList, JsonValue, MarkerDefinition } from '../../markers/index.ts';
import { DiagnosticCodes, fieldMarkers } from '../../markers/index.ts';
import type { JSONSchemaProps } from './json-schema-props.ts';
import type { SchemaSites, SchemaStep } from './schema-site.ts';
import { valueProblems } from './value-problems.ts';

/** The schema keys that hold a value of the schema itself, and the markers that write them. */
const VALUE_KEYS = [
  { key: 'default', markers: [fieldMarkers.default, fieldMarkers.k8sDefault] },
  { key: 'example', markers: [fieldMarkers.example] },
] as const satisfies readonly { key: keyof JSONSchemaProps; markers: readonly MarkerDefinition[] }[];

/**
 * Reports every `default` and `example` of a kind's finished schema that does not validate against
 * the schema it stands in, at the marker that wrote it. Defaults are checked as the API server checks
 * them: with the defaults of their own properties applied first.
 */
export function checkMarkerValues(
  schema: JSONSchemaProps,
  sites: SchemaSites,
  diagnostics: DiagnosticList,
): void {
  walk(schema, [], (node, path) => {
    for (const { key, markers } of VALUE_KEYS) {
      const value = node[key];
      if (value === undefined) continue;
      if (node.type === 'array' && isEmptyObject(value)) continue;
      const checked = key === 'default' ? withNestedDefaults(value, node) : value;
      const problems = valueProblems(checked, node).map((p) => p.replace(/^: /, ''));
      if (problems.length === 0) continue;
      const site = sites.at(path);
      const marker = site.markers.find((m) =>
        (markers as readonly MarkerDefinition[]).includes(m.definition),
      );
      const message = `${key} ${JSON.stringify(value)} does not validate against its schema: ${problems.join('; ')}`;
      diagnostics.error(DiagnosticCodes.invalidMarkerValue, message, marker?.location ?? site.location);
    }
  });
}

/** `{}` is also the marker grammar's empty list (`{a,b}` is a list), which controller-gen writes as is. */
function isEmptyObject(value: JsonValue): boolean {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
  );
}

function walk(
  schema: JSONSchemaProps,
  path: readonly SchemaStep[],
  visit: (node: JSONSchemaProps, path: readonly SchemaStep[]) => void,
): void {
  visit(schema, path);
  for (const [name, child] of Object.entries(schema.properties ?? {}))
    walk(child, [...path, { kind: 'property', name }], visit);
  if (schema.items) walk(schema.items, [...path, { kind: 'items' }], visit);
  if (typeof schema.additionalProperties === 'object')
    walk(schema.additionalProperties, [...path, { kind: 'additionalProperties' }], visit);
}

/** A value with the defaults of its schema's properties filled in where it leaves them out. */
export function withNestedDefaults(value: JsonValue, schema: JSONSchemaProps): JsonValue {
  if (Array.isArray(value)) {
    const items = schema.items;
    return items === undefined ? value : value.map((item) => withNestedDefaults(item, items));
  }
  if (value === null || typeof value !== 'object') return value;
  const result: { [key: string]: JsonValue } = {};
  for (const [name, property] of Object.entries(schema.properties ?? {}))
    if (!(name in value) && property.default !== undefined) result[name] = property.default;
  for (const [name, child] of Object.entries(value)) {
    const property = schema.properties?.[name];
    const additional =
      typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
    const childSchema = property ?? additional;
    result[name] = childSchema === undefined ? child : withNestedDefaults(child, childSchema);
  }
  return result;
}
