import type { PropertyCheck } from './check.ts';

/**
 * crdify's `nullable`: allowing null changes what clients must handle, and forbidding it rejects
 * stored nulls; either may be allowed by policy.
 */
export const nullableCheck: PropertyCheck = {
  name: 'nullable',
  scope: 'property',
  defaultEnforcement: 'error',
  keys: ['nullable'],
  options: { additionPolicy: ['Disallow', 'Allow'], removalPolicy: ['Disallow', 'Allow'] },
  compare(old, next, options) {
    const before = old.nullable === true;
    const after = next.nullable === true;
    if (!before && after && options['additionPolicy'] !== 'Allow') return 'nullable added: false -> true';
    if (before && !after && options['removalPolicy'] !== 'Allow') return 'nullable removed: true -> false';
    return undefined;
  },
};
