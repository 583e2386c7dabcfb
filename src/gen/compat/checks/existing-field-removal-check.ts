import { flattenSchema } from '../flatten-schema.ts';
import type { CrdCheck, CrdProblem } from './check.ts';

/**
 * crdify's `existingFieldRemoval`: a field of a version the baseline also has is gone, so clients
 * that read or write it break. Only the outermost removed field is named: its children go with it.
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
      const after = flattenSchema(version.schema.openAPIV3Schema);
      const removed = [...flattenSchema(before.schema.openAPIV3Schema).keys()].filter((p) => !after.has(p));
      for (const path of removed.filter((p) => !removed.some((outer) => p.startsWith(`${outer}.`)))) {
        problems.push({ version: version.name, path, message: 'removed field' });
      }
    }
    return problems;
  },
};
