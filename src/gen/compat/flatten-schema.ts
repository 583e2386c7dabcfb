import type { JSONSchemaProps } from '../crd/json-schema-props.ts';

/** The root of a schema, as crdify writes it: `^`, `^.spec.replicas`, `^.spec.hosts.items`. */
export const SCHEMA_ROOT = '^';

/**
 * A node of a flattened schema. `constraint` says how it hangs off `parent`: an `allOf`/`anyOf`
 * entry or an `additionalProperties` schema constrains the parent's own values, while a property
 * or `items` is a field of its own.
 */
export interface SchemaNode {
  readonly schema: JSONSchemaProps;
  readonly parent?: string;
  readonly constraint: boolean;
}

/**
 * Every node of a schema by its path, each without its children, so that comparing two nodes
 * compares only what that node itself says (a new optional child leaves its parent unchanged).
 */
export function flattenSchema(schema: JSONSchemaProps | undefined): Map<string, JSONSchemaProps> {
  return new Map([...schemaNodes(schema)].map(([path, node]) => [path, node.schema]));
}

/** {@link flattenSchema} with where each node hangs. */
export function schemaNodes(schema: JSONSchemaProps | undefined): Map<string, SchemaNode> {
  const nodes = new Map<string, SchemaNode>();
  if (!schema) return nodes;
  nodes.set(SCHEMA_ROOT, { schema: withoutChildren(schema), constraint: false });
  visitChildren(schema, SCHEMA_ROOT, nodes);
  return nodes;
}

function visitChildren(schema: JSONSchemaProps, path: string, nodes: Map<string, SchemaNode>): void {
  const child = (node: JSONSchemaProps, at: string, constraint: boolean): void => {
    nodes.set(at, { schema: withoutChildren(node), parent: path, constraint });
    visitChildren(node, at, nodes);
  };
  for (const [name, property] of Object.entries(schema.properties ?? {}))
    child(property, `${path}.${name}`, false);
  if (schema.items) child(schema.items, `${path}.items`, false);
  if (typeof schema.additionalProperties === 'object')
    child(schema.additionalProperties, `${path}.additionalProperties`, true);
  schema.allOf?.forEach((entry, i) => child(entry, `${path}.allOf[${i}]`, true));
  schema.anyOf?.forEach((entry, i) => child(entry, `${path}.anyOf[${i}]`, true));
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
