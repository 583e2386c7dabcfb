import type { ProjectConfig } from '../../project/project-config.ts';
import { applyWrites } from '../apply.ts';
import { fileWrites, type Change } from '../change.ts';
import { stageManifests } from '../delete/stage-manifests.ts';
import { StagingTree } from '../staging-tree.ts';
import { isManifestOutput, type UpdatePlan } from './plan-update.ts';

/**
 * Writes an update's plan and the manifests its merged sources generate, all at once. The
 * manifests are generated first from the sources as the plan leaves them (as `delete api` stages
 * its own), so that sources which cannot generate them fail the update with nothing written, and
 * the error names each file:line:col. With conflicts the sources hold markers: the plan is written
 * alone, the manifests left for `tsoperator manifests` once they are resolved. Returns the
 * manifests written.
 */
export async function writeUpdate(dir: string, project: ProjectConfig, plan: UpdatePlan): Promise<Change[]> {
  const manifests = plan.conflicts.length > 0 ? [] : await mergedManifests(dir, project, plan);
  await applyWrites(dir, fileWrites([...plan.changes, ...manifests]));
  return manifests;
}

async function mergedManifests(dir: string, project: ProjectConfig, plan: UpdatePlan): Promise<Change[]> {
  const tree = await StagingTree.open(dir);
  for (const change of plan.changes.filter((c) => c.path.startsWith('src/'))) {
    if (change.action === 'delete') await tree.delete(change.path);
    else if (change.content !== undefined) await tree.update(change.path, change.content);
  }
  await stageManifests(tree, project, manifestsFailure);
  return tree.changes().filter((change) => isManifestOutput(change.path) && change.action !== 'unchanged');
}

function manifestsFailure(problems: string): string {
  return (
    `nothing was updated: the merged sources would not generate their manifests:\n${problems}\n` +
    'Fix the problems above in the project, commit, then run `tsoperator alpha update` again.'
  );
}
