import { findLines } from './marker-insert.ts';

/** The outcome of taking a scaffolded snippet out of a file. */
export type SnippetRemoveResult =
  { readonly kind: 'removed'; readonly text: string } | { readonly kind: 'absent' };

/**
 * Takes out the lines a scaffold inserted (`insertAtMarker`'s snippet), wherever they are now: the
 * first run of consecutive lines equal to the snippet's, indentation aside. With `sameWhen`, a
 * single line starting with it counts as the snippet too (the registration an older version wrote,
 * or one the user reformatted on one line). The rest of the file, the user's lines, stays as it is.
 *
 * @example
 * ```ts
 * removeSnippet('a();\n  register(b);\n// +tsoperator:scaffold:controllers\n', 'register(b);');
 * // { kind: 'removed', text: 'a();\n// +tsoperator:scaffold:controllers\n' }
 * ```
 */
export function removeSnippet(text: string, snippet: string, sameWhen?: string): SnippetRemoveResult {
  const lines = text.split('\n');
  const trimmed = lines.map((line) => line.trim());
  const needle = snippet.split('\n').map((line) => line.trim());
  const start = findLines(trimmed, needle);
  if (start >= 0) return { kind: 'removed', text: without(lines, start, needle.length) };
  if (sameWhen === undefined) return { kind: 'absent' };
  const single = trimmed.findIndex((line) => line.startsWith(sameWhen) && line.endsWith(';'));
  return single < 0 ? { kind: 'absent' } : { kind: 'removed', text: without(lines, single, 1) };
}

function without(lines: readonly string[], start: number, count: number): string {
  return [...lines.slice(0, start), ...lines.slice(start + count)].join('\n');
}
