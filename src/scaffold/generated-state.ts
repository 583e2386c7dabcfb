import { createHash } from 'node:crypto';
import { TsoperatorError } from '../errors.ts';

/**
 * What tsoperator last wrote to each file it generated, as content hashes, so that `--force` can
 * tell a file the user has changed (kept) from one still as generated (regenerated). Kept in the
 * project, so that a teammate's `--force` knows it too.
 */
export const GENERATED_STATE_FILE = '.tsoperator/generated.json';

/** Path → sha256 of the content tsoperator wrote. */
export type GeneratedState = Map<string, string>;

/** The sha256 of a file's text. */
export function contentHash(content: string): string {
  return createHash('sha256').update(content).digest('hex');
}

/** The state from the state file's text (or an empty state when there is none). */
export function parseGeneratedState(text: string | undefined): GeneratedState {
  if (text === undefined) return new Map();
  try {
    const doc = JSON.parse(text) as { files?: Record<string, string> };
    return new Map(Object.entries(doc.files ?? {}));
  } catch (err) {
    throw new TsoperatorError(
      `${GENERATED_STATE_FILE} is not valid JSON (${(err as Error).message}): restore it from version control, ` +
        'or delete it (--force then keeps every existing file as yours)',
      { cause: err },
    );
  }
}

/** The state file's text, paths sorted so that it diffs well. */
export function renderGeneratedState(state: GeneratedState): string {
  const files = Object.fromEntries([...state.entries()].sort(([a], [b]) => a.localeCompare(b)));
  return `${JSON.stringify({ files }, null, 2)}\n`;
}
