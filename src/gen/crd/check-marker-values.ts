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
 * the schema it stands in, at the marker that wrote it. A default is checked as the API server checks
 * it when the CRD is applied: as written, its properties' own defaults not filled in. What the API
 * server does not check is a warning: an example, which only documents, and a default inside a map's
 * values, which it applies to objects that then fail validation.
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
      const problems = valueProblems(value, node).map((p) => p.replace(/^: /, ''));
      if (problems.length === 0) continue;
      const site = sites.at(path);
      const marker = site.markers.find((m) =>
        (markers as readonly MarkerDefinition[]).includes(m.definition),
      );
      const location = marker?.location ?? site.location;
      const message = `${key} ${JSON.stringify(value)} does not validate against its schema: ${problems.join('; ')}`;
      if (key === 'example')
        diagnostics.warning(
          DiagnosticCodes.uncheckedMarkerValue,
          `${message} (the API server does not check examples)`,
          location,
        );
      else if (path.some((step) => step.kind === 'additionalProperties'))
        diagnostics.warning(
          DiagnosticCodes.uncheckedMarkerValue,
          `${message} (the API server does not check a default inside a map's values, but objects it fills in would be refused)`,
          location,
        );
      else diagnostics.error(DiagnosticCodes.invalidMarkerValue, message, location);
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
