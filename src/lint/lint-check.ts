import type { LintedApi } from './linted-api.ts';
import type { LintReport } from './lint-finding.ts';
import type { SettingsReader } from './settings-reader.ts';

/** A check, configured and ready to run over an API. */
export type LintRun = (api: LintedApi, report: LintReport) => void;

/**
 * One API convention check, named as kube-api-linter names it so its documentation applies, and on
 * or off by default as there.
 */
export interface LintCheck {
  readonly name: string;
  /** One line saying what the check wants. */
  readonly help: string;
  readonly enabledByDefault: boolean;
  /** Reads the check's settings (kube-api-linter's `lintersConfig` entry for it) and returns its run. */
  readonly configure: (settings: SettingsReader) => LintRun;
}
