import { applyWrites } from '../apply.ts';
import { fileWrites } from '../change.ts';
import { removeEmptyFolders } from '../remove-empty-folders.ts';
import type { DeleteApiOptions, DeleteApiPlan } from './delete-api-options.ts';
import { DRY_RUN_KEEP_ASIDE_FOLDER, keepAsideFolder } from './keep-aside-dir.ts';
import { planDeleteApi } from './plan-delete-api.ts';

/**
 * `delete api` from start to end: plans the deletion (manifests included), writes it all at once,
 * then removes the folders it left empty. A dry run stops after planning.
 *
 * @example
 * ```ts
 * const plan = await deleteApi({ dir: '.', kind: 'Captain', force: false }, { dryRun: true });
 * ```
 */
export async function deleteApi(
  options: DeleteApiOptions,
  run: { readonly dryRun: boolean },
): Promise<DeleteApiPlan> {
  // The real run stamps the folder with its own time, so a dry run cannot name it.
  const plan = await planDeleteApi(
    options,
    run.dryRun ? DRY_RUN_KEEP_ASIDE_FOLDER : keepAsideFolder(new Date()),
  );
  if (run.dryRun) return plan;
  await applyWrites(options.dir, fileWrites(plan.changes));
  const deleted = plan.changes.filter((change) => change.action === 'delete').map((change) => change.path);
  await removeEmptyFolders(options.dir, deleted);
  return plan;
}
