import { TsoperatorError } from '../../errors.ts';
import type { CompatibilityResult } from './check-compatibility.ts';
import { COMPAT_CONFIG_FILE } from './compat-config.ts';
import { formatFinding, type Finding } from './finding.ts';

/** The text report: one line per finding; a note on stderr's side is the caller's (see `skippedNote`). */
export function compatibilityLines(result: CompatibilityResult): string {
  return result.findings.map((f) => `${formatFinding(f)}\n`).join('');
}

/**
 * What to tell the user when nothing was compared (no baseline, or none of its CRDs is generated),
 * so a check that checked nothing is never silent.
 */
export function skippedNote(result: CompatibilityResult): string | undefined {
  if (result.skipped !== undefined) return `compatibility not checked: ${result.skipped}\n`;
  if (result.compared.length === 0)
    return `compatibility: ${result.baseline ?? 'the baseline'} has none of the generated CRDs\n`;
  return undefined;
}

/** The report as `--format json` prints it (without the trailing newline). */
export function compatibilityJson(result: CompatibilityResult): {
  baseline: string | null;
  skipped: string | null;
  compared: readonly string[];
  errors: number;
  warnings: number;
  findings: readonly Finding[];
} {
  return {
    baseline: result.baseline ?? null,
    skipped: result.skipped ?? null,
    compared: result.compared,
    errors: count(result.findings, 'error'),
    warnings: count(result.findings, 'warning'),
    findings: result.findings,
  };
}

/** The error `manifests --check` ends with when a finding is an error; undefined when none is. */
export function incompatibleError(result: CompatibilityResult): TsoperatorError | undefined {
  const errors = count(result.findings, 'error');
  if (errors === 0) return undefined;
  return new TsoperatorError(
    `${errors} incompatible change${errors === 1 ? '' : 's'} against ${result.baseline ?? 'the baseline'} (listed above).\n` +
      `Keep the old behaviour, serve the change as a new version, or set the check's enforcement in ${COMPAT_CONFIG_FILE}.`,
  );
}

function count(findings: readonly Finding[], severity: Finding['severity']): number {
  return findings.filter((f) => f.severity === severity).length;
}
