import type { Change } from '../scaffold/change.ts';

/**
 * What a scaffolding command does with its plan: writes it all at once (unless `--dry-run`), then
 * prints it, one line per file, and says when nothing was written.
 */
export async function applyPlan(dir: string, changes: readonly Change[], dryRun: boolean): Promise<void> {
  const { applyWrites } = await import('../scaffold/apply.ts');
  const { fileWrites } = await import('../scaffold/change.ts');
  const { formatChanges } = await import('../scaffold/format-changes.ts');
  if (!dryRun) await applyWrites(dir, fileWrites(changes));
  process.stdout.write(formatChanges(changes));
  if (dryRun) process.stdout.write('dry run: nothing was written\n');
}
