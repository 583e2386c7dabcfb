/**
 * What a scaffold does to one file. A plan is a list of these: applying it writes the files,
 * `--dry-run` prints it, and tests read it.
 */
export type ChangeAction = 'create' | 'overwrite' | 'insert' | 'delete' | 'unchanged' | 'kept' | 'manual';

export interface Change {
  readonly action: ChangeAction;
  /** Project-relative, with '/' separators. */
  readonly path: string;
  /** The text written: to `path`, or to `beside` when the user's file is kept. */
  readonly content?: string;
  /** For `kept`: where the new version goes, next to the user's file. */
  readonly beside?: string;
  /** Why, for the user: which marker was used, what to do by hand. */
  readonly note?: string;
}

/** A file to write, or to remove, relative to the project root. */
export type FileWrite =
  { readonly path: string; readonly content: string } | { readonly path: string; readonly removed: true };

/** The files a plan writes and removes, in plan order. */
export function fileWrites(changes: readonly Change[]): FileWrite[] {
  return changes.flatMap((change): FileWrite[] => {
    if (change.action === 'delete') return [{ path: change.path, removed: true }];
    if (change.content === undefined) return [];
    return [{ path: change.beside ?? change.path, content: change.content }];
  });
}
