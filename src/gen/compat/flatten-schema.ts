import type { JSONSchemaProps } from '../crd/json-schema-props.ts';

/** The root of a schema, as crdify writes it: `^`, `^.spec.replicas`, `^.spec.hosts.items`. */
export const SCHEMA_ROOT = '^';

/**
 * Every node of a schema by its path, each without its children, so that comparing two nodes
 * compares only what that node itself says (a new optional child leaves its parent unchanged).
 */
export function flattenSchema(schema: JSONSchemaProps | undefined): Map<string, JSONSchemaProps> {
  const nodes = new Map<string, JSONSchemaProps>();
  if (schema) visit(schema, SCHEMA_ROOT, nodes);
  return nodes;
}

function visit(schema: JSONSchemaProps, path: string, nodes: Map<string, JSONSchemaProps>): void {
  nodes.set(path, withoutChildren(schema));
  for (const [name, child] of Object.entries(schema.properties ?? {})) visit(child, `${path}.${name}`, nodes);
  if (schema.items) visit(schema.items, `${path}.items`, nodes);
  if (typeof schema.additionalProperties === 'object')
    visit(schema.additionalProperties, `${path}.additionalProperties`, nodes);
  schema.allOf?.forEach((child, i) => visit(child, `${path}.allOf[${i}]`, nodes));
  schema.anyOf?.forEach((child, i) => visit(child, `${path}.anyOf[${i}]`, nodes));
}

/** The keys whose values are child schemas: each child is compared on its own, at its own path. */
const CHILD_KEYS: ReadonlySet<string> = new Set(['properties', 'items', 'allOf', 'anyOf']);

/** The node's own keys; `additionalProperties: false/true` is the node's own, a schema there is a child. */
function withoutChildren(schema: JSONSchemaProps): JSONSchemaProps {
  return Object.fromEntries(
    Object.entries(schema).filter(
      ([key, value]) =>
        !CHILD_KEYS.has(key) && !(key === 'additionalProperties' && typeof value === 'object'),
    ),
  );
}
