import type { PropertyCheck } from './check.ts';

/** crdify's `type`: a field whose type changes cannot hold the values stored under the old one. */
export const typeCheck: PropertyCheck = {
  name: 'type',
  scope: 'property',
  defaultEnforcement: 'error',
  keys: ['type'],
  compare(old, next) {
    return (old.type ?? '') === (next.type ?? '')
      ? undefined
      : `type changed: ${JSON.stringify(old.type ?? '')} -> ${JSON.stringify(next.type ?? '')}`;
  },
};
