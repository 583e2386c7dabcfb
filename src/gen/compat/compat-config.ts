import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { TsoperatorError } from '../../errors.ts';
import type { CheckOptions, CompatibilityCheck, Enforcement } from './checks/check.ts';
import { compatibilityChecks } from './checks/registry.ts';
import { yamlDocuments } from './yaml-documents.ts';

/**
 * How the compatibility checks are enforced. It is read from a config file in crdify's own format
 * rather than from PROJECT: PROJECT is generated (its header says DO NOT EDIT, and every `create`
 * command rewrites it from its model), while this is a policy a team edits by hand, and a project
 * moving from crdify keeps the file it has.
 */
export interface CompatConfig {
  /** Every check, by name, with its enforcement and settings (defaults filled in). */
  readonly checks: ReadonlyMap<string, ConfiguredCheck>;
  /** crdify's `unhandledEnforcement`: changes no check judges. Default: error (fail closed). */
  readonly unhandledEnforcement: Enforcement;
  /**
   * crdify's `conversion`: `Ignore` skips the comparison across served versions of a CRD that has
   * a conversion webhook (the webhook maps between them); `None`, the default, compares anyway.
   */
  readonly conversion: 'None' | 'Ignore';
}

export interface ConfiguredCheck {
  readonly enforcement: Enforcement;
  readonly options: CheckOptions;
}

/** The config file read when `--compat-config` names none, at the project's root. */
export const COMPAT_CONFIG_FILE = 'crdify.yaml';

/** The config with every check at its default. */
export function defaultCompatConfig(): CompatConfig {
  return {
    checks: new Map(
      compatibilityChecks.map((c) => [
        c.name,
        { enforcement: c.defaultEnforcement, options: defaultOptions(c) },
      ]),
    ),
    unhandledEnforcement: 'error',
    conversion: 'None',
  };
}

/** The enforcement `config` gives `check`, its default when the config leaves it out. */
export function enforcementOf(config: CompatConfig, check: CompatibilityCheck): Enforcement {
  return config.checks.get(check.name)?.enforcement ?? check.defaultEnforcement;
}

/**
 * The config of `root`: the file `path` names (which must exist), else `crdify.yaml` when there is
 * one, else the defaults.
 */
export function loadCompatConfig(root: string, path?: string): CompatConfig {
  const file = resolve(root, path ?? COMPAT_CONFIG_FILE);
  if (path === undefined && !existsSync(file)) return defaultCompatConfig();
  if (!existsSync(file)) throw new TsoperatorError(`the compatibility config ${path} does not exist`);
  return parseCompatConfig(readFileSync(file, 'utf8'), path ?? COMPAT_CONFIG_FILE);
}

/**
 * A config in crdify's format: `validations: [{ name, enforcement, configuration }]`,
 * `unhandledEnforcement`, `conversion`. Enforcements are crdify's `Error`, `Warn`, `None`; `off`
 * is taken for `None`. Checks left out keep their defaults, as in crdify.
 */
export function parseCompatConfig(text: string, source: string): CompatConfig {
  // A file of comments only has no document: it is the defaults.
  const doc = record(yamlDocuments(text, source)[0] ?? {}, source);
  const checks = new Map(defaultCompatConfig().checks);
  const entries = doc['validations'] ?? [];
  if (!Array.isArray(entries)) throw new TsoperatorError(`${source}: "validations" must be a list`);
  entries.forEach((entry: unknown, i: number) => {
    const where = `${source}: validations[${i}]`;
    const item = record(entry, where);
    const check = compatibilityChecks.find((c) => c.name === item['name']);
    if (!check) {
      const known = compatibilityChecks.map((c) => c.name).join(', ');
      throw new TsoperatorError(
        `${where} names the unknown check ${JSON.stringify(item['name'])}; the checks are: ${known}`,
      );
    }
    if (item['enforcement'] === undefined)
      throw new TsoperatorError(`${where} (${check.name}) needs an enforcement: Error, Warn or None`);
    checks.set(check.name, {
      enforcement: parseEnforcement(item['enforcement'], `${where}.enforcement`),
      options: parseOptions(check, item['configuration'], `${where}.configuration`),
    });
  });
  return {
    checks,
    unhandledEnforcement:
      doc['unhandledEnforcement'] === undefined
        ? 'error'
        : parseEnforcement(doc['unhandledEnforcement'], `${source}: unhandledEnforcement`),
    conversion: parseConversion(doc['conversion'], `${source}: conversion`),
  };
}

function parseEnforcement(value: unknown, where: string): Enforcement {
  const word = typeof value === 'string' ? value.toLowerCase() : '';
  if (word === 'error') return 'error';
  if (word === 'warn' || word === 'warning') return 'warn';
  if (word === 'none' || word === 'off') return 'off';
  throw new TsoperatorError(`${where} is ${JSON.stringify(value)}; use Error, Warn or None`);
}

function parseConversion(value: unknown, where: string): 'None' | 'Ignore' {
  if (value === undefined || value === 'None') return 'None';
  if (value === 'Ignore') return 'Ignore';
  throw new TsoperatorError(`${where} is ${JSON.stringify(value)}; use None or Ignore`);
}

function parseOptions(check: CompatibilityCheck, value: unknown, where: string): CheckOptions {
  const options: Record<string, string> = { ...defaultOptions(check) };
  for (const [key, setting] of Object.entries(
    value === undefined || value === null ? {} : record(value, where),
  )) {
    const allowed = check.options?.[key];
    if (!allowed) throw new TsoperatorError(`${where}: ${check.name} has no setting "${key}"`);
    if (typeof setting !== 'string' || !allowed.includes(setting))
      throw new TsoperatorError(`${where}.${key} is ${JSON.stringify(setting)}; use ${allowed.join(' or ')}`);
    options[key] = setting;
  }
  return options;
}

function defaultOptions(check: CompatibilityCheck): CheckOptions {
  return Object.fromEntries(Object.entries(check.options ?? {}).map(([key, allowed]) => [key, allowed[0]]));
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new TsoperatorError(`${where} must be a YAML mapping`);
  return value as Record<string, unknown>;
}
