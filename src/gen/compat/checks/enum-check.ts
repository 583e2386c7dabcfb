import type { PropertyCheck } from './check.ts';

/** crdify's `enum`: an enum added, a value removed, or (unless `additionPolicy: Allow`) a value added. */
export const enumCheck: PropertyCheck = {
  name: 'enum',
  scope: 'property',
  defaultEnforcement: 'error',
  keys: ['enum'],
  options: { additionPolicy: ['Disallow', 'Allow'] },
  compare(old, next, options) {
    const before = new Set((old.enum ?? []).map((v) => JSON.stringify(v)));
    const after = new Set((next.enum ?? []).map((v) => JSON.stringify(v)));
    const removed = [...before].filter((v) => !after.has(v)).sort();
    const added = [...after].filter((v) => !before.has(v)).sort();
    if (before.size === 0 && after.size > 0)
      return `enum constraint added when there was none previously: [${added.join(', ')}]`;
    if (removed.length > 0) return `allowed enum values removed: [${removed.join(', ')}]`;
    if (added.length > 0 && options['additionPolicy'] !== 'Allow')
      return `allowed enum values added: [${added.join(', ')}]`;
    return undefined;
  },
};
