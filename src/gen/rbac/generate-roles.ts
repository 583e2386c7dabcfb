import { compareBytes } from '../byte-order.ts';
import { mergeRules } from './merge-rules.ts';
import type { RuleParts } from './merge-rules.ts';
import type { RbacMarker } from './rbac-marker.ts';
import type { RoleManifest } from './role-manifest.ts';

/** The name Kubebuilder projects give the manager's role (`rbac:roleName=manager-role`). */
export const DEFAULT_ROLE_NAME = 'manager-role';

/**
 * The roles that rbac markers ask for: one ClusterRole per role name for rules without a
 * namespace, one Role per namespace and role name for the others, ordered by namespace then name,
 * with rules merged as controller-gen merges them.
 *
 * @example
 * generateRoles([{ groups: ['apps'], resources: ['deployments'], resourceNames: [], verbs: ['get'], urls: [] }]);
 * // [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'manager-role' }, rules: [...] }]
 */
export function generateRoles(
  markers: readonly RbacMarker[],
  roleName: string = DEFAULT_ROLE_NAME,
): RoleManifest[] {
  const byRole = new Map<string, { namespace: string; name: string; rules: RuleParts[] }>();
  for (const marker of markers) {
    const namespace = marker.namespace ?? '';
    const name = marker.roleName || roleName;
    const key = JSON.stringify([namespace, name]);
    const role = byRole.get(key) ?? { namespace, name, rules: [] };
    role.rules.push(...splitByResource(marker));
    byRole.set(key, role);
  }
  return [...byRole.values()]
    .sort((a, b) => compareBytes(a.namespace, b.namespace) || compareBytes(a.name, b.name))
    .map((role) => roleManifest(role.namespace, role.name, mergeRules(role.rules)))
    .filter((role) => role.rules.length > 0);
}

/** One rule per resource, so that later merging can regroup resources by equal verbs. */
function splitByResource(marker: RbacMarker): RuleParts[] {
  const resources = marker.resources.length > 0 ? marker.resources.map((r) => [r]) : [[]];
  return resources.map((resource) => ({
    groups: [...marker.groups],
    resources: resource,
    resourceNames: [...marker.resourceNames],
    urls: [...marker.urls],
    verbs: [...marker.verbs],
  }));
}

function roleManifest(namespace: string, name: string, rules: RoleManifest['rules']): RoleManifest {
  if (namespace === '') {
    return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules };
  }
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name, namespace }, rules };
}
