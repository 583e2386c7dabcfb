import type { Kind } from '../client/kind.ts';

/** `/mutate-demo-example-org-v1-webapp`: the path controller-runtime serves a kind's defaulter on. */
export function mutatePath(kind: Kind): string {
  return `/mutate-${pathSuffix(kind)}`;
}

/** `/validate-demo-example-org-v1-webapp`: the path controller-runtime serves a kind's validator on. */
export function validatePath(kind: Kind): string {
  return `/validate-${pathSuffix(kind)}`;
}

/** The path of conversion webhooks, as controller-runtime and Kubebuilder's CRD patch name it. */
export const CONVERT_PATH = '/convert';

function pathSuffix(kind: Kind): string {
  // The core group is empty, hence `/mutate--v1-pod`, as Kubebuilder's markers spell it.
  return `${kind.group.replaceAll('.', '-')}-${kind.version}-${kind.kind.toLowerCase()}`;
}
