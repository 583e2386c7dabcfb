import type { CrdVersion } from '../crd/custom-resource-definition.ts';

/**
 * A CustomResourceDefinition as the compatibility checks read it: the generator's CRDs and the
 * baseline's (a committed file, or the cluster's object, which also has `conversion` and `status`).
 */
export interface ComparedCrd {
  readonly metadata: { readonly name: string };
  readonly spec: {
    readonly scope: string;
    readonly versions: readonly CrdVersion[];
    readonly conversion?: { readonly strategy?: string };
  };
  readonly status?: { readonly storedVersions?: readonly string[] };
}

/** Where the old CRDs come from, named for messages: `git main (merge base 1a2b3c4)`. */
export interface Baseline {
  readonly source: string;
  readonly crds: readonly ComparedCrd[];
}

/** True for a parsed document that has the shape of a CRD. */
export function isComparedCrd(value: unknown): value is ComparedCrd {
  if (typeof value !== 'object' || value === null) return false;
  const doc = value as { kind?: unknown; metadata?: { name?: unknown }; spec?: { versions?: unknown } };
  return (
    doc.kind === 'CustomResourceDefinition' &&
    typeof doc.metadata?.name === 'string' &&
    Array.isArray(doc.spec?.versions)
  );
}
