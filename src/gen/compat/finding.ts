import type { ReportedEnforcement } from './checks/check.ts';

/** One incompatibility between a generated CRD and its baseline. */
export interface Finding {
  /** The CRD's name: `webapps.demo.example.org`. */
  readonly crd: string;
  /** The version, `v1`; `v1alpha1->v1` across served versions; absent for the whole CRD. */
  readonly version?: string;
  /** The schema node, crdify's way: `^.spec.replicas`. */
  readonly path?: string;
  /** The check's crdify name, or `unhandled`. */
  readonly check: string;
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

/**
 * A finding as one line, in the form of the marker diagnostics with the CRD, version and path where
 * those have file:line:col: `webapps.demo.example.org v1 ^.spec.replicas - error maximum: ...`.
 */
export function formatFinding(finding: Finding): string {
  const where = [finding.crd, finding.version, finding.path].filter((part) => part !== undefined).join(' ');
  return `${where} - ${finding.severity} ${finding.check}: ${finding.message}`;
}

/** Orders findings by CRD, version, path and check, so reports never flap. */
export function compareFindings(a: Finding, b: Finding): number {
  for (const key of ['crd', 'version', 'path', 'check', 'message'] as const) {
    const x = a[key] ?? '';
    const y = b[key] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** The severity of a finding under an enforcement that reports it. */
export function severityOf(enforcement: ReportedEnforcement): Finding['severity'] {
  return enforcement === 'error' ? 'error' : 'warning';
}
