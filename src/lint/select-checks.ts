import { TsoperatorError } from '../errors.ts';
import { lintChecks } from './checks/index.ts';
import type { LintCheck, LintRun } from './lint-check.ts';
import type { LintConfig } from './lint-config.ts';
import { SettingsReader } from './settings-reader.ts';
import { UNPORTED_CHECKS } from './unported-checks.ts';

/** A check that is on, with its settings read. */
export interface EnabledCheck {
  readonly name: string;
  readonly run: LintRun;
}

/** The checks a configuration turns on, and what in it was read but means nothing here. */
export interface CheckSelection {
  readonly checks: readonly EnabledCheck[];
  /** One line per ignored setting, for stderr: nothing in the configuration is dropped silently. */
  readonly notes: readonly string[];
}

const WILDCARD = '*';

/**
 * The checks a configuration turns on, as kube-api-linter chooses them: the default ones, plus
 * `enable`, minus `disable`; `*` alone in either list means every check. A name no check has is a
 * mistake, and so is a name in both lists; kube-api-linter's checks tsoperator does not have may be
 * disabled, not enabled.
 */
export function enabledChecks(config: LintConfig, checks: readonly LintCheck[] = lintChecks): CheckSelection {
  const where = config.source === '' ? '' : `${config.source}: `;
  requireKnownNames(config, checks, where);
  const notes = Object.keys(config.lintersConfig)
    .filter((name) => UNPORTED_CHECKS.includes(name))
    .map(
      (name) =>
        `lintersConfig.${name}: tsoperator does not have the check ${name} yet; its settings are ignored`,
    );
  const enabled = checks
    .filter((check) => isEnabled(check, config))
    .map((check) => {
      const settings = new SettingsReader(check.name, config.lintersConfig[check.name], notes);
      return { name: check.name, run: check.configure(settings) };
    });
  return { checks: enabled, notes: notes.map((note) => `${where}${note}`) };
}

/** Throws on a check name `config` gets wrong, naming the checks there are. */
function requireKnownNames(config: LintConfig, checks: readonly LintCheck[], where: string): void {
  const known = new Set(checks.map((check) => check.name));
  const isName = (name: string): boolean => known.has(name) || UNPORTED_CHECKS.includes(name);
  const fail = (message: string): never => {
    throw new TsoperatorError(`${where}${message}; the checks are ${[...known].join(', ')}`);
  };
  for (const [list, names] of [
    ['linters.enable', config.enable],
    ['linters.disable', config.disable],
  ] as const) {
    if (names.includes(WILDCARD) && names.length > 1) fail(`${list}: '*' must be the only value`);
    const unknown = names.find((name) => name !== WILDCARD && !isName(name));
    if (unknown !== undefined) fail(`${list}: there is no check ${JSON.stringify(unknown)}`);
  }
  const unported = config.enable.find((name) => UNPORTED_CHECKS.includes(name));
  if (unported !== undefined)
    fail(
      `linters.enable: tsoperator does not have kube-api-linter's check ${JSON.stringify(unported)} yet; remove it from the list`,
    );
  const both = config.enable.find((name) => config.disable.includes(name));
  if (both !== undefined) fail(`${JSON.stringify(both)} is both enabled and disabled`);
  const unknownSettings = Object.keys(config.lintersConfig).find((name) => !isName(name));
  if (unknownSettings !== undefined)
    fail(`lintersConfig: there is no check ${JSON.stringify(unknownSettings)}`);
}

function isEnabled(check: LintCheck, config: LintConfig): boolean {
  if (config.enable.includes(check.name) || config.enable.includes(WILDCARD)) return true;
  if (config.disable.includes(check.name) || config.disable.includes(WILDCARD)) return false;
  return check.enabledByDefault;
}
