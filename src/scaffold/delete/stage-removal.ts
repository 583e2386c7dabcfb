import { UsageError } from '../../errors.ts';
import type { Change } from '../change.ts';
import { bindsName } from '../api/main-import.ts';
import { removeSnippet } from '../snippet-remove.ts';
import type { StagingTree } from '../staging-tree.ts';
import type { Removal, SnippetRemoval } from './removal.ts';
import { KEEP_ASIDE_DIR } from './keep-aside-dir.ts';

/** How the files the user changed are treated. */
export interface KeepAside {
  /** Delete them too, a copy of each kept in `folder`; without it they refuse the deletion. */
  readonly force: boolean;
  /** Project-relative folder the copies go to, their project paths below it. */
  readonly folder: string;
}

/**
 * Stages a removal on the tree: the scaffold's lines out of the files that stay, and the files
 * deleted. A file the user changed since tsoperator wrote it (by the recorded hashes) refuses the
 * whole deletion, every such file named, unless --force; then its copy is planned in the keep-aside
 * folder, returned to be written beside the plan.
 */
export async function stageRemoval(tree: StagingTree, removal: Removal, keep: KeepAside): Promise<Change[]> {
  const files = await existing(tree, [...new Set(removal.files)]);
  const changed: string[] = [];
  for (const path of files) if (await tree.changedSinceGenerated(path)) changed.push(path);
  if (changed.length > 0 && !keep.force) {
    throw new UsageError(
      `these files would be deleted but were changed since tsoperator generated them: ${changed.join(', ')}; ` +
        `re-run with --force to delete them too (a copy of each is kept in ${KEEP_ASIDE_DIR}/<time>/)`,
    );
  }
  const keptAside: Change[] = [];
  for (const path of changed) {
    const content = (await tree.read(path)) ?? '';
    keptAside.push({
      action: 'create',
      path: `${keep.folder}/${path}`,
      content,
      note: `your copy of ${path}`,
    });
  }
  for (const path of [...files, ...removal.outputs]) await tree.delete(path);
  for (const snippet of removal.snippets) await stageSnippetRemoval(tree, snippet);
  return keptAside;
}

async function existing(tree: StagingTree, paths: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const path of paths) if ((await tree.read(path)) !== undefined) found.push(path);
  return found;
}

async function stageSnippetRemoval(tree: StagingTree, removal: SnippetRemoval): Promise<void> {
  const text = await tree.read(removal.path);
  if (text === undefined) return;
  const result = removeSnippet(text, removal.snippet, removal.sameWhen);
  if (result.kind === 'removed' && removal.binding !== undefined && bindsName(result.text, removal.binding)) {
    tree.requireManual(
      removal.path,
      `left in place: ${removal.binding} is still imported there, from another file (a kind of the ` +
        `same name in another group?), so the line may be that one's; if it is this kind's, remove by hand:\n${removal.snippet}`,
    );
    return;
  }
  if (result.kind === 'removed') {
    await tree.edit(removal.path, result.text, `removed at +tsoperator:scaffold:${removal.marker}`);
    return;
  }
  tree.requireManual(
    removal.path,
    `not found as tsoperator wrote it; if it is still there in another form, remove by hand:\n${removal.snippet}`,
  );
}
