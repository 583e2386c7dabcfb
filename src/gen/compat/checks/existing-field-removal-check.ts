import type { JSONSchemaProps } from '../../crd/json-schema-props.ts';
import { flattenSchema } from '../flatten-schema.ts';
import type { CrdCheck, CrdProblem } from './check.ts';

/**
 * crdify's `existingFieldRemoval`: a field of a version the baseline also has is gone, so clients
 * that read or write it break.
 */
export const existingFieldRemovalCheck: CrdCheck = {
  name: 'existingFieldRemoval',
  scope: 'crd',
  defaultEnforcement: 'error',
  compare(old, next) {
    const problems: CrdProblem[] = [];
    for (const version of next.spec.versions) {
      const before = old.spec.versions.find((v) => v.name === version.name);
      if (!before) continue;
      for (const path of removedFields(before.schema?.openAPIV3Schema, version.schema?.openAPIV3Schema))
        problems.push({ version: version.name, path, message: REMOVED_FIELD });
    }
    return problems;
  },
};

/** The message of a removed field, as crdify words it. */
export const REMOVED_FIELD = 'removed field';

/** The fields of `old` that `next` lacks; only the outermost of each: its children go with it. */
export function removedFields(old: JSONSchemaProps | undefined, next: JSONSchemaProps | undefined): string[] {
  const after = flattenSchema(next);
  const removed = [...flattenSchema(old).keys()].filter((p) => !after.has(p));
  return removed.filter((p) => !removed.some((outer) => p.startsWith(`${outer}.`)));
}
