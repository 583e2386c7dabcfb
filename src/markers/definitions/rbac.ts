import { fieldsMarker } from '../definition.ts';

const strings = { type: { list: 'string' }, optional: true } as const;

/** `+kubebuilder:rbac`: a permission the manager needs, written into config/rbac/role.yaml. */
export const rbacMarkers = {
  rule: fieldsMarker(
    {
      name: 'kubebuilder:rbac',
      targets: ['package'],
      category: 'RBAC',
      help: 'a rule of the manager role (a Role when namespace is set)',
    },
    {
      groups: { ...strings, help: 'API groups; "" or core for the core group' },
      resources: { ...strings, help: 'resources, `deployments/status` for a subresource' },
      resourceNames: { ...strings, help: 'names the rule is limited to' },
      verbs: { type: { list: 'string' }, help: 'verbs, `*` for all' },
      urls: { ...strings, help: 'non-resource URLs such as /metrics' },
      namespace: { type: 'string', optional: true, help: 'puts the rule into a Role in this namespace' },
      roleName: {
        type: 'string',
        optional: true,
        help: 'the role the rule goes into instead of manager-role',
      },
    },
  ),
};
