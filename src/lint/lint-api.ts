import { compareDiagnostics } from '../markers/index.ts';
import type { LintConfig } from './lint-config.ts';
import type { LintFinding } from './lint-finding.ts';
import { loadLintedApi } from './linted-api.ts';
import { enabledChecks } from './select-checks.ts';

export interface LintResult {
  /** Sorted by file, then position. */
  readonly findings: readonly LintFinding[];
  /** The names of the checks that ran. */
  readonly checks: readonly string[];
  /** How many named types were linted: 0 when the project has no API yet. */
  readonly types: number;
  /**
   * The settings ignored (kube-api-linter's about Go alone, or for its checks tsoperator does not
   * have), one line each, for stderr.
   */
  readonly notes: readonly string[];
}

/**
 * Runs the checks `config` enables over the API types under `root`/src/api. Configuration errors
 * throw before any type is read.
 */
export function lintApi(root: string, config: LintConfig): LintResult {
  const { checks, notes } = enabledChecks(config);
  const api = loadLintedApi(root);
  const findings: LintFinding[] = [];
  for (const check of checks) {
    check.run(api, (location, message, fix, severity = 'error') =>
      findings.push({ check: check.name, severity, message, fix, location }),
    );
  }
  findings.sort((a, b) => compareDiagnostics(a, b) || a.check.localeCompare(b.check));
  return { findings, checks: checks.map((check) => check.name), types: api.named.length, notes };
}
