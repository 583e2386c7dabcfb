import { it } from 'node:test';
import assert from 'node:assert/strict';
import { generateRoles } from '../../../src/gen/rbac/index.ts';
import type { RbacMarker } from '../../../src/gen/rbac/index.ts';

function rule(
  groups: string[],
  resources: string[],
  verbs: string[],
  extra: Partial<RbacMarker> = {},
): RbacMarker {
  return { groups, resources, resourceNames: [], verbs, urls: [], ...extra };
}

it('merges verbs per resource, then resources with equal verbs, then groups', () => {
  const roles = generateRoles([
    rule(['apps'], ['deployments'], ['get', 'list']),
    rule(['apps'], ['deployments'], ['watch', 'get']),
    rule(['apps'], ['statefulsets'], ['list', 'watch', 'get']),
    rule(['batch'], ['deployments', 'statefulsets'], ['get', 'list', 'watch']),
  ]);
  assert.deepEqual(roles[0]?.rules, [
    {
      apiGroups: ['apps', 'batch'],
      resources: ['deployments', 'statefulsets'],
      verbs: ['get', 'list', 'watch'],
    },
  ]);
});

it('lets * absorb other verbs only after merging, as controller-gen does', () => {
  const roles = generateRoles([rule([''], ['pods'], ['get', '*']), rule(['core'], ['secrets'], ['*'])]);
  assert.deepEqual(roles[0]?.rules, [
    { apiGroups: [''], resources: ['pods'], verbs: ['*'] },
    { apiGroups: [''], resources: ['secrets'], verbs: ['*'] },
  ]);
});

it('puts namespaced rules into a Role per namespace and role name, after the ClusterRole', () => {
  const roles = generateRoles([
    rule([''], ['secrets'], ['get'], { namespace: 'tenant-b' }),
    rule([''], ['configmaps'], ['get'], { namespace: 'tenant-a', roleName: 'reader' }),
    rule(['apps'], ['deployments'], ['get']),
  ]);
  assert.deepEqual(
    roles.map((r) => [r.kind, r.metadata.namespace ?? '', r.metadata.name]),
    [
      ['ClusterRole', '', 'manager-role'],
      ['Role', 'tenant-a', 'reader'],
      ['Role', 'tenant-b', 'manager-role'],
    ],
  );
});
