import type { ManifestObject } from '../deploy/manifest-object.ts';

/** One entry of a CSV's `spec.customresourcedefinitions.owned`. */
export type OwnedCrd = Record<string, unknown> & {
  readonly name: string;
  readonly version: string;
  readonly kind: string;
};

interface CrdVersion {
  readonly name: string;
  readonly schema?: { readonly openAPIV3Schema?: { readonly description?: string } };
}

/**
 * The CRDs the CSV owns: one entry per version of each CRD, as the bundle validator requires. An
 * entry the base CSV has for the same name, version and kind is kept as the user wrote it (with
 * its spec and status descriptors); a new one takes its display name from the kind and its
 * description from the version's schema, the type's doc comment.
 */
export function ownedCrds(objects: readonly ManifestObject[], base: readonly OwnedCrd[]): OwnedCrd[] {
  const owned: OwnedCrd[] = [];
  for (const crd of objects.filter((object) => object.kind === 'CustomResourceDefinition')) {
    const spec = crd['spec'] as { names?: { kind?: string }; versions?: CrdVersion[] } | undefined;
    const kind = spec?.names?.kind ?? '';
    for (const version of spec?.versions ?? []) {
      const key = { name: crd.metadata.name, version: version.name, kind };
      const edited = base.find((entry) => sameCrd(entry, key));
      const description = version.schema?.openAPIV3Schema?.description;
      owned.push({
        ...key,
        displayName: displayNameOf(kind),
        ...(description === undefined ? {} : { description }),
        ...edited,
      });
    }
  }
  return owned;
}

function sameCrd(a: OwnedCrd, b: OwnedCrd): boolean {
  return a.name === b.name && a.version === b.version && a.kind === b.kind;
}

/** `MemcachedBackup` → `Memcached Backup`. */
function displayNameOf(kind: string): string {
  return kind.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
}
