import type { ProjectConfig, ResourceConfig } from '../../project/project-config.ts';
import type { StagingTree } from '../staging-tree.ts';
import { webhookPaths } from '../webhook/webhook-paths.ts';

/**
 * The resources of a multi-group project whose webhooks are at the single-group path
 * (`src/webhooks/v1/`, not `src/webhooks/crew/v1/`): made before `create api --multigroup` turned
 * the project multi-group. PROJECT does not record when a webhook was made, and `create webhook`
 * puts it where the project's layout says at that time, so where its setup file is tells.
 */
export async function singleGroupWebhooks(
  tree: StagingTree,
  project: ProjectConfig,
): Promise<ResourceConfig[]> {
  if (!project.multigroup) return [];
  const singleGroup = { ...project, multigroup: false };
  const found: ResourceConfig[] = [];
  for (const resource of project.resources) {
    if (resource.webhooks === undefined) continue;
    const setup = webhookPaths(singleGroup, resource).setup;
    if (setup === webhookPaths(project, resource).setup) continue;
    if ((await tree.read(setup)) !== undefined) found.push(resource);
  }
  return found;
}
