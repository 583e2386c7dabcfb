/**
 * Kubernetes' own API groups, by the short name a user passes to `--group`, with the domain that
 * completes them (`networking` + `k8s.io`). A kind in one of these gets a controller but no types.
 */
const KUBERNETES_GROUPS: Readonly<Record<string, string>> = {
  core: '',
  apps: '',
  batch: '',
  autoscaling: '',
  policy: '',
  admissionregistration: 'k8s.io',
  apiextensions: 'k8s.io',
  certificates: 'k8s.io',
  coordination: 'k8s.io',
  discovery: 'k8s.io',
  events: 'k8s.io',
  networking: 'k8s.io',
  node: 'k8s.io',
  'rbac.authorization': 'k8s.io',
  scheduling: 'k8s.io',
  storage: 'k8s.io',
};

/** The domain of a Kubernetes group (`''` for apps, `k8s.io` for networking), or undefined if not one. */
export function kubernetesGroupDomain(group: string): string | undefined {
  return Object.hasOwn(KUBERNETES_GROUPS, group) ? KUBERNETES_GROUPS[group] : undefined;
}
