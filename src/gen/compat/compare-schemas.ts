import { isDeepStrictEqual } from 'node:util';
import type { JSONSchemaProps } from '../crd/json-schema-props.ts';
import type { ReportedEnforcement } from './checks/check.ts';
import { propertyChecks, UNHANDLED_CHECK } from './checks/registry.ts';
import type { CompatConfig } from './compat-config.ts';
import { flattenSchema, schemaNodes, type SchemaNode } from './flatten-schema.ts';

/** An incompatibility at one schema node, before it is tied to a CRD and version. */
export interface SchemaProblem {
  readonly path: string;
  readonly check: string;
  readonly enforcement: ReportedEnforcement;
  readonly message: string;
}

/** Every key a property check judges: what remains different after them is an unhandled change. */
const HANDLED_KEYS: ReadonlySet<string> = new Set(propertyChecks.flatMap((c) => c.keys));

/**
 * The problems of `next` against `old`, node by node. Nodes only `old` has are the removal check's
 * concern; a node only `next` has is a new field and breaks nothing, unless it is a constraint on
 * a node `old` has (see {@link addsConstraint}), which is judged against an empty schema. Each node
 * both have is judged by every check that is on, and the keys no check judges must be unchanged
 * (crdify's fail-closed rule).
 */
export function compareSchemas(
  old: JSONSchemaProps | undefined,
  next: JSONSchemaProps | undefined,
  config: CompatConfig,
): SchemaProblem[] {
  const before = flattenSchema(old);
  const after = schemaNodes(next);
  const problems: SchemaProblem[] = [];
  for (const [path, { schema }] of after) {
    const previous = before.get(path) ?? (addsConstraint(path, after, before) ? {} : undefined);
    if (previous && !isDeepStrictEqual(previous, schema))
      problems.push(...compareNodes(path, previous, schema, config));
  }
  return problems;
}

/**
 * True when the new node at `path` constrains values that `old` already has: the first step down
 * from its nearest ancestor in `old` is an `allOf`/`anyOf` entry or an `additionalProperties`
 * schema (crdify sees those as changes of that ancestor), not a property or `items`.
 */
function addsConstraint(
  path: string,
  after: ReadonlyMap<string, SchemaNode>,
  before: ReadonlyMap<string, JSONSchemaProps>,
): boolean {
  let node = after.get(path);
  while (node?.parent !== undefined && !before.has(node.parent)) node = after.get(node.parent);
  return node?.parent !== undefined && node.constraint;
}

function compareNodes(
  path: string,
  old: JSONSchemaProps,
  next: JSONSchemaProps,
  config: CompatConfig,
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const check of propertyChecks) {
    const configured = config.checks.get(check.name);
    if (!configured || configured.enforcement === 'off') continue;
    const message = check.compare(old, next, configured.options);
    if (message !== undefined)
      problems.push({ path, check: check.name, enforcement: configured.enforcement, message });
  }
  const unhandled = unhandledChanges(old, next);
  if (unhandled.length > 0 && config.unhandledEnforcement !== 'off') {
    problems.push({
      path,
      check: UNHANDLED_CHECK,
      enforcement: config.unhandledEnforcement,
      message: `unhandled changes found: ${unhandled.join('; ')}`,
    });
  }
  return problems;
}

function unhandledChanges(old: JSONSchemaProps, next: JSONSchemaProps): string[] {
  const before = old as Readonly<Record<string, unknown>>;
  const after = next as Readonly<Record<string, unknown>>;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((k) => !HANDLED_KEYS.has(k))
    .sort();
  return keys
    .filter((key) => !isDeepStrictEqual(before[key], after[key]))
    .map(
      (key) =>
        `${key}: ${JSON.stringify(before[key]) ?? '(none)'} -> ${JSON.stringify(after[key]) ?? '(none)'}`,
    );
}
