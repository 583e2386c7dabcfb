import { TsoperatorError } from '../errors.ts';
import { lintChecks } from './checks/index.ts';
import type { LintCheck, LintRun } from './lint-check.ts';
import type { LintConfig } from './lint-config.ts';
import { SettingsReader } from './settings-reader.ts';

/** A check that is on, with its settings read. */
export interface EnabledCheck {
  readonly name: string;
  readonly run: LintRun;
}

const WILDCARD = '*';

/**
 * The checks a configuration turns on, as kube-api-linter chooses them: the default ones, plus
 * `enable`, minus `disable`; `*` alone in either list means every check. A name no check has is a
 * mistake, and so is a name in both lists.
 */
export function enabledChecks(config: LintConfig, checks: readonly LintCheck[] = lintChecks): EnabledCheck[] {
  const known = new Set(checks.map((check) => check.name));
  const where = config.source === '' ? '' : `${config.source}: `;
  const fail = (message: string): never => {
    throw new TsoperatorError(`${where}${message}; the checks are ${[...known].join(', ')}`);
  };
  for (const [list, names] of [
    ['linters.enable', config.enable],
    ['linters.disable', config.disable],
  ] as const) {
    if (names.includes(WILDCARD) && names.length > 1) fail(`${list}: '*' must be the only value`);
    const unknown = names.find((name) => name !== WILDCARD && !known.has(name));
    if (unknown !== undefined) fail(`${list}: there is no check ${JSON.stringify(unknown)}`);
  }
  const both = config.enable.find((name) => config.disable.includes(name));
  if (both !== undefined) fail(`${JSON.stringify(both)} is both enabled and disabled`);
  const unknownSettings = Object.keys(config.lintersConfig).find((name) => !known.has(name));
  if (unknownSettings !== undefined)
    fail(`lintersConfig: there is no check ${JSON.stringify(unknownSettings)}`);
  return checks
    .filter((check) => isEnabled(check, config))
    .map((check) => {
      const settings = new SettingsReader(`lintersConfig.${check.name}`, config.lintersConfig[check.name]);
      return { name: check.name, run: check.configure(settings) };
    });
}

function isEnabled(check: LintCheck, config: LintConfig): boolean {
  if (config.enable.includes(check.name) || config.enable.includes(WILDCARD)) return true;
  if (config.disable.includes(check.name) || config.disable.includes(WILDCARD)) return false;
  return check.enabledByDefault;
}
