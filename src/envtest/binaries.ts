import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

/** The binaries a test control plane is made of, in the KUBEBUILDER_ASSETS layout. */
export const CONTROL_PLANE_BINARIES = [
  'etcd',
  'kube-apiserver',
  'kubectl',
  'kube-controller-manager',
] as const;
export type ControlPlaneBinary = (typeof CONTROL_PLANE_BINARIES)[number];

/** Binaries every envtest release archive has; kube-controller-manager is only in our Go build. */
export const ARCHIVE_BINARIES: readonly ControlPlaneBinary[] = ['etcd', 'kube-apiserver', 'kubectl'];

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
