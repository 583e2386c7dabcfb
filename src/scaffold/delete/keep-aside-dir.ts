/**
 * Where `delete api --force` keeps a copy of each file the user changed, one folder per run
 * (`.tsoperator/deleted/2026-12-02T01-47-25Z/src/api/v1/captain.types.ts`): in the project, so
 * that version control shows it, and under `.tsoperator/` with the scaffold's other records.
 */
export const KEEP_ASIDE_DIR = '.tsoperator/deleted';
