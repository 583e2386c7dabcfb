import type { SourceLocation } from '../markers/index.ts';

/** An error fails `tsoperator lint`; a warning is printed and lets it pass. */
export type LintSeverity = 'error' | 'warning';

/** One convention a type breaks: where, which check (by its kube-api-linter name), what and how to fix it. */
export interface LintFinding {
  readonly check: string;
  readonly severity: LintSeverity;
  readonly message: string;
  readonly fix: string;
  readonly location: SourceLocation;
}

/** How a check reports: at a place, what is wrong and what to do; `severity` defaults to error. */
export type LintReport = (
  location: SourceLocation,
  message: string,
  fix: string,
  severity?: LintSeverity,
) => void;
