import { TsoperatorError } from '../../errors.ts';
import { findResource, type ProjectConfig, type ResourceConfig } from '../../project/project-config.ts';
import { DEFAULT_VERSION, defaultGroup } from '../../project/resolve-resource.ts';
import type { DeleteApiOptions } from './delete-api-options.ts';

/**
 * The PROJECT resource `delete api` removes, with `--group` and `--version` defaulted as `create
 * api` defaults them (the project's group, v1), each default taken noted for the user.
 */
export function findDeletedResource(
  project: ProjectConfig,
  options: Pick<DeleteApiOptions, 'kind' | 'group' | 'version'>,
  defaultsTaken: string[],
): ResourceConfig {
  const version = options.version ?? DEFAULT_VERSION;
  if (options.version === undefined) defaultsTaken.push(`version ${DEFAULT_VERSION} (no --version given)`);
  const group = options.group ?? defaultGroup(project, defaultsTaken);
  const found = findResource(project, { group, version, kind: options.kind });
  if (found !== undefined) return found;
  const ofKind = project.resources
    .filter((r) => r.kind === options.kind)
    .map((r) => `--group ${r.group || '""'} --version ${r.version}`);
  const known = ofKind.length === 0 ? 'PROJECT has no API of that kind' : `PROJECT has ${ofKind.join(', ')}`;
  throw new TsoperatorError(
    `the project has no API ${options.kind} in group ${group || '""'} ${version}: ${known}`,
  );
}
