import type { ComparedCrd } from '../compared-crd.ts';
import type { CrdCheck } from './check.ts';

/**
 * crdify's `storedVersionRemoval`: objects stored at a version the new CRD no longer has cannot be
 * read. A cluster's CRD lists its stored versions in its status; a file has no status, so there
 * the baseline's storage version stands for them: clusters running it have stored objects there.
 */
export const storedVersionRemovalCheck: CrdCheck = {
  name: 'storedVersionRemoval',
  scope: 'crd',
  defaultEnforcement: 'error',
  compare(old, next) {
    const kept = new Set(next.spec.versions.map((v) => v.name));
    return storedVersions(old)
      .filter((version) => !kept.has(version))
      .map((version) => ({ version, message: 'stored version removed' }));
  },
};

function storedVersions(crd: ComparedCrd): readonly string[] {
  return crd.status?.storedVersions ?? crd.spec.versions.filter((v) => v.storage).map((v) => v.name);
}
