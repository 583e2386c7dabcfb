export type { LintCheck, LintRun } from './lint-check.ts';
export type { LintFinding, LintSeverity } from './lint-finding.ts';
export type { LintConfig } from './lint-config.ts';
export { LINT_CONFIG_FILE, readLintConfig } from './lint-config.ts';
export type { LintResult } from './lint-api.ts';
export { lintApi } from './lint-api.ts';
export { countOf, formatFinding, formatLintJson, formatLintText } from './format-findings.ts';
export { lintChecks } from './checks/index.ts';
