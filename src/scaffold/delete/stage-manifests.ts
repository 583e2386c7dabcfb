import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TsoperatorError, isTsoperatorError } from '../../errors.ts';
import type { ManifestFile } from '../../gen/manifest-generator.ts';
import { generateManifests } from '../../gen/manifests.ts';
import type { ProjectConfig } from '../../project/project-config.ts';
import { applyWrites } from '../apply.ts';
import { fileWrites } from '../change.ts';
import { templatesDir } from '../package-paths.ts';
import { renderTemplate } from '../render-template.ts';
import type { StagingTree } from '../staging-tree.ts';

/** The error a command gives when its planned sources would not generate their manifests. */
export type ManifestsFailure = (problems: string) => string;

const DELETE_FAILURE: ManifestsFailure = (problems) =>
  `nothing was deleted: the sources left would not generate their manifests:\n${problems}\n` +
  'Fix the problems above (code that uses the deleted kind), then run `tsoperator delete api` again.';

/** The manager's role, which `init` writes empty and `tsoperator manifests` fills from markers. */
const ROLE_FILE = 'config/rbac/role.yaml';

/**
 * Stages the manifests as the project's sources will generate them once the plan is applied:
 * generated from a scratch copy of src/ with the plan's changes in it, so that they join the plan
 * (listed by --dry-run, written in the same all-or-nothing apply) instead of following it. With
 * no +kubebuilder:rbac marker left, the role goes back to the empty one `init` wrote. `failure`
 * words the error, whose problems name each file:line:col.
 */
export async function stageManifests(
  tree: StagingTree,
  project: ProjectConfig,
  failure: ManifestsFailure = DELETE_FAILURE,
): Promise<void> {
  const files = await manifestsAfterPlan(tree, project.settings.crd?.maxDescLen, failure);
  for (const file of files) await tree.update(file.path, file.content);
  if (!files.some((file) => file.path === ROLE_FILE) && (await tree.read(ROLE_FILE)) !== undefined) {
    const template = join(templatesDir('init'), `${ROLE_FILE}.ejs`);
    await tree.update(ROLE_FILE, await renderTemplate(template, { namespaced: project.settings.namespaced }));
  }
}

async function manifestsAfterPlan(
  tree: StagingTree,
  maxDescLen: number | undefined,
  failure: ManifestsFailure,
): Promise<ManifestFile[]> {
  const scratch = await mkdtemp(join(tmpdir(), 'tsoperator-manifests-'));
  try {
    await cp(join(tree.root, 'src'), join(scratch, 'src'), { recursive: true });
    const sources = fileWrites(tree.changes()).filter((write) => write.path.startsWith('src/'));
    await applyWrites(scratch, sources);
    // The scratch folder has no PROJECT file: its setting comes from the project's.
    return generateManifests({ root: scratch, maxDescLen });
  } catch (err) {
    if (!isTsoperatorError(err)) throw err;
    throw new TsoperatorError(failure(err.message.replaceAll(scratch, '.')), { cause: err });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
