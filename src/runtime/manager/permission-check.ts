import type { V1SelfSubjectAccessReview } from '@kubernetes/client-node';
import type { Transport } from '../client/transport.ts';

/** How many SelfSubjectAccessReviews are in flight at once. */
const REVIEWS_AT_ONCE = 3;

/** One permission the manager needs, in the words of an RBAC rule. */
export interface Permission {
  /** API group; '' for the core group. */
  readonly group: string;
  readonly resource: string;
  readonly verb: string;
  /** Where it is needed; '' or absent means in every namespace (or a cluster-scoped resource). */
  readonly namespace?: string;
}

/** Start-up stopped because the manager's identity may not do what its controllers need. */
export class MissingPermissionsError extends Error {
  readonly missing: readonly Permission[];

  constructor(missing: readonly Permission[]) {
    super(describeMissing(missing));
    this.name = 'MissingPermissionsError';
    this.missing = missing;
  }
}

/**
 * Asks the API server (SelfSubjectAccessReview) whether the manager's identity holds each
 * permission, and throws one error naming every missing one as the `+kubebuilder:rbac` marker that
 * would grant it. Without this check a missing rule shows only as a controller that never acts.
 */
export async function checkPermissions(
  transport: Transport,
  permissions: readonly Permission[],
  signal?: AbortSignal,
): Promise<void> {
  const unique = [...new Map(permissions.map((p) => [permissionKey(p), p])).values()];
  const allowed = new Map<Permission, boolean>();
  const pending = [...unique];
  // A few reviews at a time: each one at once would open a TLS connection of its own before the
  // caches' first list, on the path to the first reconcile; these few are kept for the lists.
  const worker = async (): Promise<void> => {
    for (let p = pending.shift(); p; p = pending.shift())
      allowed.set(p, await isAllowed(transport, p, signal));
  };
  await Promise.all(Array.from({ length: Math.min(REVIEWS_AT_ONCE, unique.length) }, worker));
  const missing = unique.filter((p) => allowed.get(p) !== true);
  if (missing.length > 0) throw new MissingPermissionsError(missing);
}

/** Asks whether the manager's identity holds `p`. */
async function isAllowed(transport: Transport, p: Permission, signal?: AbortSignal): Promise<boolean> {
  const review = await transport.request<V1SelfSubjectAccessReview>({
    method: 'POST',
    ...(signal ? { signal } : {}),
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: {
        resourceAttributes: {
          group: p.group,
          resource: p.resource,
          verb: p.verb,
          ...(p.namespace ? { namespace: p.namespace } : {}),
        },
      },
    },
  });
  return review.status?.allowed === true;
}

function permissionKey(p: Permission): string {
  return `${p.group}|${p.resource}|${p.verb}|${p.namespace ?? ''}`;
}

/** Groups missing verbs by resource, one marker line per group/resource/namespace. */
function describeMissing(missing: readonly Permission[]): string {
  const byResource = new Map<string, { permission: Permission; verbs: Set<string> }>();
  for (const p of missing) {
    const key = `${p.group}|${p.resource}|${p.namespace ?? ''}`;
    const entry = byResource.get(key) ?? { permission: p, verbs: new Set<string>() };
    entry.verbs.add(p.verb);
    byResource.set(key, entry);
  }
  const markers = [...byResource.values()].map(({ permission: p, verbs }) => {
    const namespace = p.namespace ? `,namespace=${p.namespace}` : '';
    return `  // +kubebuilder:rbac:groups=${p.group || 'core'},resources=${p.resource},verbs=${[...verbs].sort().join(';')}${namespace}`;
  });
  return [
    'The manager may not do what its controllers need, so it did not start. Missing permissions:',
    ...markers,
    'Add these markers above the reconciler that needs them, run `tsoperator manifests`, and apply config/rbac (or `npm run deploy`).',
  ].join('\n');
}
