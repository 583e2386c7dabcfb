import type { PropertyCheck } from './check.ts';

/** crdify's `pattern`: a pattern added or changed may reject stored values; removal too, unless allowed. */
export const patternCheck: PropertyCheck = {
  name: 'pattern',
  scope: 'property',
  defaultEnforcement: 'error',
  keys: ['pattern'],
  options: { removalPolicy: ['Disallow', 'Allow'] },
  compare(old, next, options) {
    const before = old.pattern ?? '';
    const after = next.pattern ?? '';
    const change = `${JSON.stringify(before)} -> ${JSON.stringify(after)}`;
    if (before === after) return undefined;
    if (before === '') return `pattern added: ${change}`;
    if (after === '') return options['removalPolicy'] === 'Allow' ? undefined : `pattern removed: ${change}`;
    return `pattern changed: ${change}`;
  },
};
