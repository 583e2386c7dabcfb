import type { PolicyRule } from './policy-rule.ts';

/** A ClusterRole, or a Role when `metadata.namespace` is set, as role.yaml holds them. */
export interface RoleManifest {
  apiVersion: 'rbac.authorization.k8s.io/v1';
  kind: 'ClusterRole' | 'Role';
  metadata: { name: string; namespace?: string };
  rules: PolicyRule[];
}
