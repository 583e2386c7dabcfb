import { isDeepStrictEqual } from 'node:util';
import type { PropertyCheck } from './check.ts';

/** crdify's `default`: a default added, changed or removed changes what stored objects mean. */
export const defaultCheck: PropertyCheck = {
  name: 'default',
  scope: 'property',
  defaultEnforcement: 'error',
  keys: ['default'],
  compare(old, next) {
    const before = old.default === undefined ? undefined : JSON.stringify(old.default);
    const after = next.default === undefined ? undefined : JSON.stringify(next.default);
    if (before === undefined && after !== undefined)
      return `default added when there was none previously: ${after}`;
    if (before !== undefined && after === undefined) return `default value removed: ${before}`;
    if (before !== undefined && !isDeepStrictEqual(old.default, next.default))
      return `default value changed: ${before} -> ${after}`;
    return undefined;
  },
};
