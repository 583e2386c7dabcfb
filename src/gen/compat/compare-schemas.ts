import { isDeepStrictEqual } from 'node:util';
import type { JSONSchemaProps } from '../crd/json-schema-props.ts';
import type { ReportedEnforcement } from './checks/check.ts';
import { propertyChecks, UNHANDLED_CHECK } from './checks/registry.ts';
import type { CompatConfig } from './compat-config.ts';
import { flattenSchema } from './flatten-schema.ts';

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
 * concern, nodes only `next` has are new and break nothing; each node both have is judged by every
 * check that is on, and the keys no check judges must be unchanged (crdify's fail-closed rule).
 */
export function compareSchemas(
  old: JSONSchemaProps | undefined,
  next: JSONSchemaProps | undefined,
  config: CompatConfig,
): SchemaProblem[] {
  const after = flattenSchema(next);
  const problems: SchemaProblem[] = [];
  for (const [path, before] of flattenSchema(old)) {
    const node = after.get(path);
    if (node && !isDeepStrictEqual(before, node)) problems.push(...compareNodes(path, before, node, config));
  }
  return problems;
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
