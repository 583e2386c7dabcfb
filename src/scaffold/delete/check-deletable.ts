import { UsageError } from '../../errors.ts';
import type { ProjectConfig, ResourceConfig } from '../../project/project-config.ts';
import type { StagingTree } from '../staging-tree.ts';
import { apiPaths } from '../api/api-paths.ts';
import { webhookPaths } from '../webhook/webhook-paths.ts';

/** The marker that makes a version the one etcd stores the kind in. */
const STORAGE_VERSION_MARKER = '+kubebuilder:storageversion';

/** The kind's other API versions in the project. */
export function otherVersions(project: ProjectConfig, resource: ResourceConfig): ResourceConfig[] {
  return project.resources.filter(
    (r) =>
      r !== resource &&
      r.api !== undefined &&
      r.group === resource.group &&
      r.kind === resource.kind &&
      r.version !== resource.version,
  );
}

/**
 * Refuses a deletion that would break the kind's other versions: a version another version's
 * conversion webhook converts to and from, or the storage version while another version remains
 * (the objects etcd holds would have no version to be read in). Says what to do first.
 */
export async function checkDeletable(
  project: ProjectConfig,
  resource: ResourceConfig,
  tree: StagingTree,
): Promise<void> {
  const others = otherVersions(project, resource);
  const hub = others.find(
    (r) => r.webhooks?.conversion === true && r.webhooks.spoke?.includes(resource.version),
  );
  const name = `${resource.kind} ${resource.version}`;
  if (hub !== undefined) {
    const setup = webhookPaths(project, hub).setup;
    throw new UsageError(
      `${name} is a spoke of the conversion webhook of ${resource.kind} ${hub.version}, which converts to and from it: ` +
        `delete ${resource.kind} ${hub.version} first (its conversions go with it; it must not be the storage version), or take ${resource.version} out of that ` +
        `conversion by hand (its spoke in PROJECT, its entry in registerConversion in ${setup}, and its conversion file)`,
    );
  }
  if (others.length === 0 || !resource.api) return;
  const types = apiPaths(project, resource).types;
  if (!((await tree.read(types)) ?? '').includes(STORAGE_VERSION_MARKER)) return;
  const remaining = others.map((r) => r.version).join(', ');
  throw new UsageError(
    `${name} is the storage version of ${resource.kind}, and ${remaining} remain${others.length === 1 ? 's' : ''}: ` +
      `first make another version the storage version (move the \`// ${STORAGE_VERSION_MARKER}\` marker from ${types} ` +
      `to the types of ${others.map((r) => apiPaths(project, r).types).join(' or ')}), run \`tsoperator manifests\`, ` +
      'and migrate the stored objects to it; then delete this version',
  );
}
