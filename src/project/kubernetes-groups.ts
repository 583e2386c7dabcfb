/**
 * Kubernetes' own API groups, by the short name a user passes to `--group`, with the domain that
 * completes them (`networking` + `k8s.io`). With `--no-resource`, a kind in one of these is
 * Kubernetes' own (a controller, no types); without it, the group is the user's own, as in Kubebuilder.
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
