import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

/**
 * The binaries a test control plane is made of, in the KUBEBUILDER_ASSETS layout; kube-scheduler and
 * kwok are only started for an environment with nodes.
 */
export const CONTROL_PLANE_BINARIES = [
  'etcd',
  'kube-apiserver',
  'kubectl',
  'kube-controller-manager',
  'kube-scheduler',
  'kwok',
] as const;
export type ControlPlaneBinary = (typeof CONTROL_PLANE_BINARIES)[number];

/** Binaries every envtest release archive has. */
export const ARCHIVE_BINARIES: readonly ControlPlaneBinary[] = ['etcd', 'kube-apiserver', 'kubectl'];

/** Binaries no envtest archive has: tsoperator builds them with Go. */
export const BUILT_BINARIES: readonly ControlPlaneBinary[] = [
  'kube-controller-manager',
  'kube-scheduler',
  'kwok',
];

/** What an environment with nodes runs besides the control plane: a scheduler and simulated kubelets. */
export const NODE_BINARIES: readonly ControlPlaneBinary[] = ['kube-scheduler', 'kwok'];

/** The binaries to obtain for a control plane, with or without nodes. */
export function binariesFor(nodes: boolean): readonly ControlPlaneBinary[] {
  return nodes
    ? CONTROL_PLANE_BINARIES
    : CONTROL_PLANE_BINARIES.filter((name) => !NODE_BINARIES.includes(name));
}

/** The names among `names` that are not executable files in `dir`. */
export function missingBinaries(dir: string, names: readonly string[] = CONTROL_PLANE_BINARIES): string[] {
  return names.filter((name) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return false;
    } catch {
      return true;
    }
  });
}
