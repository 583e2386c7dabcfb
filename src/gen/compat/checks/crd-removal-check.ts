import type { CrdSetCheck } from './check.ts';

/**
 * tsoperator's `crdRemoval` (crdify compares one CRD at a time, so never sees one go): a CRD of the
 * baseline that is no longer generated (its API deleted, moved to another group, its plural
 * renamed) leaves the objects stored in clusters unserved and breaks its clients. A cluster
 * baseline holds only the CRDs of the generated names, so this never reports against it.
 */
export const crdRemovalCheck: CrdSetCheck = {
  name: 'crdRemoval',
  scope: 'crd-set',
  defaultEnforcement: 'error',
  compare(old, next) {
    const generated = new Set(next.map((crd) => crd.metadata.name));
    return old
      .filter((crd) => !generated.has(crd.metadata.name))
      .map((crd) => ({
        crd: crd.metadata.name,
        message:
          'the CRD is no longer generated: objects stored in clusters and the clients of it break; ' +
          'if the API was deleted on purpose, set crdRemoval to Warn or None in crdify.yaml for this change',
      }));
  },
};
