import type { Change } from './change.ts';

const WIDTH = 'unchanged'.length;

/**
 * The plan as the user reads it, one line per file (`create    src/main.ts`), notes indented below.
 * `--dry-run` prints exactly this, and a real run prints it after writing.
 *
 * @example
 * ```ts
 * formatChanges([{ action: 'create', path: 'PROJECT', content: '' }]); // 'create    PROJECT\n'
 * ```
 */
export function formatChanges(changes: readonly Change[]): string {
  return changes.map(formatChange).join('');
}

function formatChange(change: Change): string {
  const line = `${change.action.padEnd(WIDTH)} ${change.path}\n`;
  if (change.note === undefined) return line;
  const note = change.note
    .split('\n')
    .map((text) => `${' '.repeat(WIDTH + 1)}${text}\n`)
    .join('');
  return line + note;
}
