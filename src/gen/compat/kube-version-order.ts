const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;
const STABILITY: Readonly<Record<string, number>> = { alpha: 0, beta: 1, '': 2 };

/**
 * Orders version names as Kubernetes ranks them (its kube-aware version order), lowest first:
 * stability before number, so v2alpha1 < v1beta1 < v1 < v2; names that are not Kubernetes versions
 * rank lowest, and among them the alphabetically first ranks highest (Kubernetes lists `foo1` before
 * `foo10`).
 */
export function compareKubeVersions(a: string, b: string): number {
  const x = KUBE_VERSION.exec(a);
  const y = KUBE_VERSION.exec(b);
  if (!x || !y) return x ? 1 : y ? -1 : a < b ? 1 : a > b ? -1 : 0;
  return (
    (STABILITY[x[2] ?? ''] ?? 0) - (STABILITY[y[2] ?? ''] ?? 0) ||
    Number(x[1]) - Number(y[1]) ||
    Number(x[3] ?? 0) - Number(y[3] ?? 0)
  );
}
