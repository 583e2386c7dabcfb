import type { ManifestObject } from '../deploy/manifest-object.ts';

/** The rules one ServiceAccount is granted, as a CSV's install strategy lists them. */
export interface StrategyPermissions {
  readonly serviceAccountName: string;
  readonly rules: readonly unknown[];
}

export interface CsvPermissions {
  /** Namespaced grants: Roles (and ClusterRoles) bound by RoleBindings, which OLM turns into Roles. */
  readonly permissions: readonly StrategyPermissions[];
  /** Cluster-wide grants: ClusterRoles bound by ClusterRoleBindings. */
  readonly clusterPermissions: readonly StrategyPermissions[];
  /** The roles, bindings and ServiceAccounts the CSV stands for: the bundle leaves them out. */
  readonly folded: ReadonlySet<ManifestObject>;
}

interface Subject {
  readonly kind?: string;
  readonly name?: string;
}

interface RoleRef {
  readonly kind?: string;
  readonly name?: string;
  readonly apiGroup?: string;
}

/**
 * The permissions of the Deployments' ServiceAccounts, as operator-sdk's generate bundle folds
 * RBAC into a CSV: OLM creates the roles and bindings itself from these, so those objects (and the
 * ServiceAccounts) are not shipped. A binding that also names another subject is shipped as it is.
 */
export function csvPermissions(
  objects: readonly ManifestObject[],
  serviceAccounts: readonly string[],
): CsvPermissions {
  const accounts = new Set(serviceAccounts);
  const folded = new Set<ManifestObject>(
    objects.filter((object) => object.kind === 'ServiceAccount' && accounts.has(object.metadata.name)),
  );
  const grant = (bindingKind: string): StrategyPermissions[] => {
    const rules = new Map<string, unknown[]>();
    for (const binding of objects.filter((object) => object.kind === bindingKind)) {
      const role = boundRole(objects, binding['roleRef'] as RoleRef | undefined, bindingKind);
      const subjects = (binding['subjects'] as Subject[] | undefined) ?? [];
      const ours = subjects.filter((s) => s.kind === 'ServiceAccount' && accounts.has(s.name ?? ''));
      if (role === undefined || ours.length === 0) continue;
      for (const subject of ours) {
        const name = subject.name ?? '';
        rules.set(name, [...(rules.get(name) ?? []), ...((role['rules'] as unknown[] | undefined) ?? [])]);
      }
      folded.add(role);
      if (ours.length === subjects.length) folded.add(binding);
    }
    return [...rules.entries()]
      .filter(([, granted]) => granted.length > 0)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([serviceAccountName, granted]) => ({ serviceAccountName, rules: granted }));
  };
  return {
    permissions: grant('RoleBinding'),
    clusterPermissions: grant('ClusterRoleBinding'),
    folded,
  };
}

/** The Role or ClusterRole a binding refers to; a ClusterRoleBinding can only refer to a ClusterRole. */
function boundRole(
  objects: readonly ManifestObject[],
  ref: RoleRef | undefined,
  bindingKind: string,
): ManifestObject | undefined {
  if (ref === undefined || (ref.apiGroup ?? 'rbac.authorization.k8s.io') !== 'rbac.authorization.k8s.io')
    return undefined;
  if (bindingKind === 'ClusterRoleBinding' && ref.kind !== 'ClusterRole') return undefined;
  return objects.find((object) => object.kind === ref.kind && object.metadata.name === ref.name);
}
