import type { CrdCheck } from './check.ts';

/** crdify's `scope`: Namespaced to Cluster (or back) changes every object's URL and identity. */
export const scopeCheck: CrdCheck = {
  name: 'scope',
  scope: 'crd',
  defaultEnforcement: 'error',
  compare(old, next) {
    if (old.spec.scope === next.spec.scope) return [];
    return [
      { message: `scope changed: ${JSON.stringify(old.spec.scope)} -> ${JSON.stringify(next.spec.scope)}` },
    ];
  },
};
