import type { LintResult } from './lint-api.ts';
import type { LintFinding } from './lint-finding.ts';

/** One finding as `tsc` and the marker diagnostics print theirs, with the fix on the line below. */
export function formatFinding(finding: LintFinding): string {
  const { file, line, column } = finding.location;
  return `${file}:${line}:${column} - ${finding.severity} ${finding.check}: ${finding.message}\n  fix: ${finding.fix}`;
}

/** The findings, then a count of errors and warnings. */
export function formatLintText(result: LintResult): string {
  const lines = result.findings.map(formatFinding);
  const errors = countOf(result, 'error');
  const warnings = countOf(result, 'warning');
  if (result.types === 0) return 'No API types under src/api: nothing to lint.\n';
  if (lines.length === 0)
    return `${result.types} API types follow the API conventions (${result.checks.length} checks).\n`;
  return `${lines.join('\n')}\n\nFound ${plural(errors, 'error')} and ${plural(warnings, 'warning')}.\n`;
}

/** The findings as JSON, for editors and CI annotations. */
export function formatLintJson(result: LintResult): string {
  const findings = result.findings.map(({ location, ...rest }) => ({ ...location, ...rest }));
  const summary = {
    errors: countOf(result, 'error'),
    warnings: countOf(result, 'warning'),
    checks: result.checks,
  };
  return `${JSON.stringify({ findings, ...summary }, null, 2)}\n`;
}

export function countOf(result: LintResult, severity: LintFinding['severity']): number {
  return result.findings.filter((finding) => finding.severity === severity).length;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
