import { UsageError } from '../errors.ts';
import type { Change } from './change.ts';
import type { StagingTree } from './staging-tree.ts';

/**
 * The tree's change list, or a refusal naming every file that exists with other content when the
 * command was not run with --force (nothing is written either way).
 */
export function finishPlan(tree: StagingTree): Change[] {
  const conflicts = tree.conflicts();
  if (conflicts.length > 0) {
    throw new UsageError(
      `these files already exist and differ from what tsoperator writes: ${conflicts.join(', ')}; ` +
        're-run with --force to regenerate them (a file you changed is kept, and the new version written beside it)',
    );
  }
  return tree.changes();
}
