import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { load } from 'js-yaml';
import { TsoperatorError } from '../errors.ts';

/**
 * The lint configuration of a project, in a file of its own beside PROJECT: PROJECT records what
 * was scaffolded and is rewritten by every `create`, while lint settings are the user's, as
 * kube-api-linter's live in .golangci.yml. Its shape is kube-api-linter's settings block, so one
 * can be copied from a Kubebuilder project.
 */
export const LINT_CONFIG_FILE = 'api-lint.yaml';

export interface LintConfig {
  /** Checks to turn on beside the default ones; `*` for all. */
  readonly enable: readonly string[];
  /** Checks to turn off; `*` for all (then only `enable` runs). */
  readonly disable: readonly string[];
  /** Settings per check name. */
  readonly lintersConfig: Readonly<Record<string, unknown>>;
  /** The file the configuration came from, for messages; '' when there is none. */
  readonly source: string;
}

const EMPTY: LintConfig = { enable: [], disable: [], lintersConfig: {}, source: '' };

/** Reads `file` (default: api-lint.yaml at the root, which may be absent: then the defaults apply). */
export function readLintConfig(root: string, file?: string): LintConfig {
  const path = join(root, file ?? LINT_CONFIG_FILE);
  if (!existsSync(path)) {
    if (file === undefined) return EMPTY;
    throw new TsoperatorError(`lint configuration ${file} does not exist`);
  }
  const source = relative(root, path);
  let raw: unknown;
  try {
    raw = load(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new TsoperatorError(
      `${source} is not valid YAML: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  return parseConfig(raw ?? {}, source);
}

function parseConfig(raw: unknown, source: string): LintConfig {
  const top = record(raw, source, 'the file');
  const unknown = Object.keys(top).find((key) => key !== 'linters' && key !== 'lintersConfig');
  if (unknown !== undefined)
    throw new TsoperatorError(
      `${source}: unknown key ${JSON.stringify(unknown)}; expected linters and lintersConfig`,
    );
  const linters = record(top['linters'] ?? {}, source, 'linters');
  return {
    enable: names(linters['enable'], source, 'linters.enable'),
    disable: names(linters['disable'], source, 'linters.disable'),
    lintersConfig: record(top['lintersConfig'] ?? {}, source, 'lintersConfig'),
    source,
  };
}

function record(value: unknown, source: string, what: string): Readonly<Record<string, unknown>> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return value as Readonly<Record<string, unknown>>;
  throw new TsoperatorError(`${source}: ${what} must be a map`);
}

function names(value: unknown, source: string, what: string): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw new TsoperatorError(`${source}: ${what} must be a list of check names`);
}
