import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ManifestObject } from '../../../src/deploy/manifest-object.ts';
import { csvPermissions } from '../../../src/bundle/csv-permissions.ts';

const RULE = (resource: string): Record<string, unknown> => ({
  apiGroups: [''],
  resources: [resource],
  verbs: ['get'],
});

function role(kind: 'Role' | 'ClusterRole', name: string, resource: string): ManifestObject {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: { name }, rules: [RULE(resource)] };
}

function binding(
  kind: 'RoleBinding' | 'ClusterRoleBinding',
  name: string,
  roleRef: { kind: string; name: string },
  subjects: { kind: string; name: string }[],
): ManifestObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind,
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef },
    subjects,
  };
}

const MANAGER = { kind: 'ServiceAccount', name: 'manager' };

describe('csvPermissions', () => {
  it("folds the roles bound to the manager's ServiceAccount into permissions and clusterPermissions", () => {
    const leader = role('Role', 'leader', 'leases');
    const manager = role('ClusterRole', 'manager-role', 'configmaps');
    const namespacedUse = role('ClusterRole', 'reader', 'secrets');
    const viewer = role('ClusterRole', 'viewer', 'widgets');
    const account: ManifestObject = {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'manager' },
    };
    const objects = [
      leader,
      manager,
      namespacedUse,
      viewer,
      account,
      binding('RoleBinding', 'leader', { kind: 'Role', name: 'leader' }, [MANAGER]),
      binding('RoleBinding', 'reader', { kind: 'ClusterRole', name: 'reader' }, [MANAGER]),
      binding('ClusterRoleBinding', 'manager', { kind: 'ClusterRole', name: 'manager-role' }, [MANAGER]),
    ];
    const result = csvPermissions(objects, ['manager']);
    assert.deepEqual(result.permissions, [
      { serviceAccountName: 'manager', rules: [RULE('leases'), RULE('secrets')] },
    ]);
    assert.deepEqual(result.clusterPermissions, [
      { serviceAccountName: 'manager', rules: [RULE('configmaps')] },
    ]);
    assert.ok(result.folded.has(account) && result.folded.has(leader) && result.folded.has(manager));
    // A role no binding gives the manager is shipped as it is, for users to bind.
    assert.equal(result.folded.has(viewer), false);
  });

  it('ships a binding that also names another subject, the role still folded', () => {
    const manager = role('ClusterRole', 'manager-role', 'configmaps');
    const shared = binding('ClusterRoleBinding', 'shared', { kind: 'ClusterRole', name: 'manager-role' }, [
      MANAGER,
      { kind: 'User', name: 'alice' },
    ]);
    const result = csvPermissions([manager, shared], ['manager']);
    assert.equal(result.clusterPermissions.length, 1);
    assert.equal(result.folded.has(shared), false);
    assert.ok(result.folded.has(manager));
  });
});
