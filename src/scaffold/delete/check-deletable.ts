import { UsageError } from '../../errors.ts';
import type { ProjectConfig, ResourceConfig } from '../../project/project-config.ts';
import type { StagingTree } from '../staging-tree.ts';
import { apiPaths } from '../api/api-paths.ts';
import { conversionPath, webhookPaths } from '../webhook/webhook-paths.ts';

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
  checkNotASpoke(project, resource, others);
  if (others.length > 0 && resource.api) await checkNotStored(project, resource, others, tree);
}

function checkNotASpoke(project: ProjectConfig, resource: ResourceConfig, others: ResourceConfig[]): void {
  const hub = others.find(
    (r) => r.webhooks?.conversion === true && r.webhooks.spoke?.includes(resource.version),
  );
  if (hub === undefined) return;
  const { kind, version } = resource;
  throw new UsageError(
    `${kind} ${version} is a spoke of the conversion webhook of ${kind} ${hub.version}, which converts to and from it: ` +
      `delete ${kind} ${hub.version} first (its conversions go with it; it must not be the storage version), or take ` +
      `${version} out of that conversion by hand (its spoke in PROJECT, its entry in registerConversion in ` +
      `${webhookPaths(project, hub).setup}, and ${conversionPath(project, resource)})`,
  );
}

async function checkNotStored(
  project: ProjectConfig,
  resource: ResourceConfig,
  others: ResourceConfig[],
  tree: StagingTree,
): Promise<void> {
  const types = apiPaths(project, resource).types;
  if (!((await tree.read(types)) ?? '').includes(STORAGE_VERSION_MARKER)) return;
  const remaining = others.map((r) => r.version).join(', ');
  throw new UsageError(
    `${resource.kind} ${resource.version} is the storage version of ${resource.kind}, and ${remaining} ` +
      `remain${others.length === 1 ? 's' : ''}: first make another version the storage version (move the ` +
      `\`// ${STORAGE_VERSION_MARKER}\` marker from ${types} to the types of ` +
      `${others.map((r) => apiPaths(project, r).types).join(' or ')}), run \`tsoperator manifests\`, ` +
      'and migrate the stored objects to it; then delete this version',
  );
}
