import { TsoperatorError, UsageError } from '../../errors.ts';
import type { ProjectConfig, ResourceConfig } from '../../project/project-config.ts';
import type { CreateWebhookOptions } from './webhook-options.ts';

/**
 * The API a webhook is for: the project's kind matching the given group and version (either may be
 * left out when only one API of the kind matches). Webhooks serve the project's own types only.
 */
export function findWebhookResource(
  project: ProjectConfig,
  options: Pick<CreateWebhookOptions, 'kind' | 'group' | 'version'>,
): ResourceConfig {
  const matches = project.resources.filter(
    (r) =>
      r.api !== undefined &&
      r.kind === options.kind &&
      (options.group === undefined || r.group === options.group) &&
      (options.version === undefined || r.version === options.version),
  );
  const [only, ...others] = matches;
  if (only === undefined) {
    throw new TsoperatorError(
      `the project has no API for ${describe(options)}: run \`tsoperator create api ${createApiArgs(options)}\` first`,
    );
  }
  if (others.length > 0) {
    const versions = matches.map((r) => `--group ${r.group || '""'} --version ${r.version}`).join(' or ');
    throw new UsageError(`${options.kind} has several APIs: say which with ${versions}`);
  }
  return only;
}

/** The spoke versions of a conversion: each must be an API of the hub's kind already. */
export function findSpokes(
  project: ProjectConfig,
  hub: ResourceConfig,
  versions: readonly string[],
): ResourceConfig[] {
  return versions.map((version) => {
    if (version === hub.version) {
      throw new UsageError(`${hub.kind} ${version} is the hub of the conversion: it cannot be a spoke too`);
    }
    const spoke = project.resources.find(
      (r) => r.api !== undefined && r.kind === hub.kind && r.group === hub.group && r.version === version,
    );
    if (spoke === undefined) {
      throw new TsoperatorError(
        `the spoke ${hub.kind} ${version} has no API: run \`tsoperator create api ${createApiArgs({ ...hub, version })}\` first`,
      );
    }
    return spoke;
  });
}

function describe(options: Pick<CreateWebhookOptions, 'kind' | 'group' | 'version'>): string {
  const parts = [options.kind, options.group && `in group ${options.group}`, options.version];
  return parts.filter((part) => part !== undefined && part !== '').join(' ');
}

function createApiArgs(options: Pick<CreateWebhookOptions, 'kind' | 'group' | 'version'>): string {
  const group = options.group === undefined ? '' : `--group ${options.group || '""'} `;
  const version = options.version === undefined ? '' : `--version ${options.version} `;
  return `${group}${version}--kind ${options.kind}`;
}
