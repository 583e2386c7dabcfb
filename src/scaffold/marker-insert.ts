/** The outcome of inserting a snippet at a marker. */
export type MarkerInsertResult =
  | { readonly kind: 'inserted'; readonly text: string }
  | { readonly kind: 'present' }
  | { readonly kind: 'no-marker' };

/**
 * Inserts `snippet` on its own lines just above the line carrying `+tsoperator:scaffold:<marker>`
 * (a `//` comment in TypeScript, a `#` comment in YAML), indented as that line is (the snippet's own
 * relative indentation is kept). A snippet already in the text is not added again, nor is it when
 * a line starts with `presentWhen` (the same registration, written by another version): re-runs
 * are idempotent.
 *
 * @example
 * ```ts
 * insertAtMarker('  // +tsoperator:scaffold:controllers\n', 'controllers', 'register(a);');
 * // { kind: 'inserted', text: '  register(a);\n  // +tsoperator:scaffold:controllers\n' }
 * ```
 */
export function insertAtMarker(
  text: string,
  marker: string,
  snippet: string,
  presentWhen?: string,
): MarkerInsertResult {
  const lines = text.split('\n');
  const markerIndex = lines.findIndex((line) => isMarkerLine(line, marker));
  if (markerIndex < 0) return { kind: 'no-marker' };
  const snippetLines = snippet.split('\n');
  const trimmed = (all: readonly string[]): string[] => all.map((line) => line.trim());
  if (findLines(trimmed(lines), trimmed(snippetLines)) >= 0) return { kind: 'present' };
  if (presentWhen !== undefined && lines.some((line) => line.trim().startsWith(presentWhen))) {
    return { kind: 'present' };
  }
  const indent = /^\s*/.exec(lines[markerIndex] ?? '')?.[0] ?? '';
  const added = snippetLines.map((line) => (line === '' ? '' : `${indent}${line}`));
  lines.splice(markerIndex, 0, ...added);
  return { kind: 'inserted', text: lines.join('\n') };
}

function isMarkerLine(line: string, marker: string): boolean {
  const match = /^\s*(?:\/\/|#)\s*\+tsoperator:scaffold:([\w-]+)\s*$/.exec(line);
  return match?.[1] === marker;
}

/** Where `needle` first appears as consecutive lines of `haystack`, or -1. */
export function findLines(haystack: readonly string[], needle: readonly string[]): number {
  for (let start = 0; start + needle.length <= haystack.length; start += 1) {
    if (needle.every((line, i) => haystack[start + i] === line)) return start;
  }
  return -1;
}
