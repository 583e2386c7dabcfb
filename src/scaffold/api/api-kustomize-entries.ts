import type { ApiPaths } from './api-options.ts';

/** The roles `create api` writes for each kind, for the cluster admins to grant. */
export const KIND_ROLES = ['admin', 'editor', 'viewer'] as const;

/** The kustomization files a kind is listed in, at their `+tsoperator:scaffold:<marker>`. */
export const RBAC_KUSTOMIZATION = 'config/rbac/kustomization.yaml';
export const CRD_KUSTOMIZATION = 'config/crd/kustomization.yaml';
export const SAMPLES_KUSTOMIZATION = 'config/samples/kustomization.yaml';

/** A role's file (`config/rbac/captain_admin_role.yaml`) and its entry in the rbac kustomization. */
export function roleFile(
  paths: ApiPaths,
  role: (typeof KIND_ROLES)[number],
): { path: string; entry: string } {
  const path = `${paths.rolePrefix}${role}_role.yaml`;
  return { path, entry: `- ${path.slice('config/rbac/'.length)}` };
}

/** The kind's CRD entry in config/crd/kustomization.yaml. */
export function crdEntry(paths: ApiPaths): string {
  return `- ${paths.crdBase}`;
}

/** The version's sample entry in config/samples/kustomization.yaml. */
export function sampleEntry(paths: ApiPaths): string {
  return `- ${paths.sample.slice('config/samples/'.length)}`;
}
