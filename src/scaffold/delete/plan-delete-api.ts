import type { ProjectConfig, ResourceConfig } from '../../project/project-config.ts';
import { PROJECT_FILE, renderProjectFile } from '../../project/project-file.ts';
import { MAIN_FILE } from '../api/controller-registration.ts';
import { readProject } from '../read-project.ts';
import { StagingTree } from '../staging-tree.ts';
import { addApiRemoval } from './api-removal.ts';
import { checkDeletable } from './check-deletable.ts';
import { checkNoImporters } from './check-no-importers.ts';
import type { DeleteApiOptions, DeleteApiPlan } from './delete-api-options.ts';
import { findDeletedResource } from './find-deleted-resource.ts';
import { newRemoval } from './removal.ts';
import { stageManifests } from './stage-manifests.ts';
import { stageRemoval } from './stage-removal.ts';
import { addWebhookRemoval } from './webhook-removal.ts';

/**
 * The changes `tsoperator delete api` makes, the inverse of `create api` and `create webhook`: the
 * resource's files deleted (under --force, a copy of each the user changed kept in `folder`), the
 * scaffold's lines taken out of those that stay, the resource out of PROJECT, and the manifests as
 * the remaining sources generate them.
 *
 * @example
 * ```ts
 * const { changes } = await planDeleteApi({ dir: '.', kind: 'Captain', force: false }, keepAsideFolder(new Date()));
 * ```
 */
export async function planDeleteApi(options: DeleteApiOptions, folder: string): Promise<DeleteApiPlan> {
  const tree = await StagingTree.open(options.dir);
  const project = await readProject(tree);
  const defaultsTaken: string[] = [];
  const resource = findDeletedResource(project, options, defaultsTaken);
  await checkDeletable(project, resource, tree);
  const removal = newRemoval();
  const main = (await tree.read(MAIN_FILE)) ?? '';
  await addApiRemoval(removal, { root: options.dir, main }, project, resource);
  await addWebhookRemoval(removal, main, project, resource);
  const keptAside = await stageRemoval(tree, removal, { force: options.force, folder });
  const deleted = tree.changes().filter((change) => change.action === 'delete');
  await checkNoImporters(tree, new Set(deleted.map((change) => change.path)));
  const remaining = withoutResource(project, resource);
  await tree.update(PROJECT_FILE, renderProjectFile(remaining));
  await stageManifests(tree, remaining);
  return {
    changes: [...keptAside, ...tree.changes()],
    defaultsTaken,
    resource,
    keptAsideIn: keptAside.length > 0 ? folder : undefined,
  };
}

/** The project without the resource, nor its deploy-image entry. */
function withoutResource(project: ProjectConfig, resource: ResourceConfig): ProjectConfig {
  const same = (r: Pick<ResourceConfig, 'group' | 'version' | 'kind'>): boolean =>
    r.group === resource.group && r.version === resource.version && r.kind === resource.kind;
  const { deployImage, ...rest } = project;
  const images = (deployImage ?? []).filter((r) => !same(r));
  return {
    ...rest,
    resources: project.resources.filter((r) => r !== resource),
    ...(images.length > 0 ? { deployImage: images } : {}),
  };
}
