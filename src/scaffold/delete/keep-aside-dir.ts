/**
 * Where `delete api --force` keeps a copy of each file the user changed, one folder per run
 * (`.tsoperator/deleted/2026-12-02T01-47-25Z/src/api/v1/captain.types.ts`): in the project, so
 * that version control shows it, and under `.tsoperator/` with the scaffold's other records.
 */
export const KEEP_ASIDE_DIR = '.tsoperator/deleted';

/** The keep-aside folder of a run at `now` (`.tsoperator/deleted/2026-12-02T01-47-25Z`). */
export function keepAsideFolder(now: Date): string {
  return `${KEEP_ASIDE_DIR}/${now.toISOString().slice(0, 19).replaceAll(':', '-')}Z`;
}

/** What a dry run names the folder: the real run's is stamped with that run's own time. */
export const DRY_RUN_KEEP_ASIDE_FOLDER = `${KEEP_ASIDE_DIR}/<time of the run>`;
