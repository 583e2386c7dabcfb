import {
  AuthorizationV1Api,
  CoreV1Api,
  RbacAuthorizationV1Api,
  type KubeConfig,
  type RbacV1Subject,
  type V1PolicyRule,
} from '@kubernetes/client-node';
import { eventuallyTrue } from '../../support/eventually.ts';

/** Kubebuilder's metrics-auth role: what the manager needs to review its callers. */
export const METRICS_AUTH_RULES: V1PolicyRule[] = [
  { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
  { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
];

/** Kubebuilder's metrics-reader role: what a scraper needs. */
export const METRICS_READER_RULES: V1PolicyRule[] = [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }];

/** Creates a ClusterRole with `rules` and binds it to `subject`. */
export async function grantClusterRole(
  admin: KubeConfig,
  name: string,
  rules: V1PolicyRule[],
  subject: RbacV1Subject,
): Promise<void> {
  const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
  await rbac.createClusterRole({ body: { metadata: { name }, rules } });
  await rbac.createClusterRoleBinding({
    body: {
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
      subjects: [subject],
    },
  });
}

/** A ServiceAccount and a token of it from the TokenRequest API. */
export async function serviceAccountToken(
  admin: KubeConfig,
  namespace: string,
  name: string,
): Promise<string> {
  const core = admin.makeApiClient(CoreV1Api);
  await core.createNamespacedServiceAccount({ namespace, body: { metadata: { name } } });
  const request = await core.createNamespacedServiceAccountToken({
    namespace,
    name,
    body: { spec: { audiences: [], expirationSeconds: 3600 } },
  });
  const token = request.status?.token;
  if (!token) throw new Error(`no token issued for ${namespace}/${name}`);
  return token;
}

/**
 * Waits until the API server's authorizer answers `allowed` for a user: RBAC objects take effect
 * through the API server's informers, a moment after they are created.
 */
export async function waitForAccess(
  admin: KubeConfig,
  user: string,
  attributes: { resource?: { group: string; resource: string; verb: string }; nonResourcePath?: string },
  allowed: boolean,
): Promise<void> {
  const api = admin.makeApiClient(AuthorizationV1Api);
  const groups = user.startsWith('system:serviceaccount:')
    ? ['system:serviceaccounts', 'system:authenticated']
    : [];
  const spec = {
    user,
    groups,
    ...(attributes.resource ? { resourceAttributes: attributes.resource } : {}),
    ...(attributes.nonResourcePath
      ? { nonResourceAttributes: { path: attributes.nonResourcePath, verb: 'get' } }
      : {}),
  };
  await eventuallyTrue(
    async () => {
      const review = await api.createSubjectAccessReview({ body: { spec } });
      return (review.status?.allowed === true) === allowed;
    },
    `${user} to be ${allowed ? 'allowed' : 'denied'} ${JSON.stringify(attributes)}`,
  );
}
