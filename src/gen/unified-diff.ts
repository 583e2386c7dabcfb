const CONTEXT = 3;
/** Beyond this many differing lines on each side, the changed block is shown whole instead of aligned. */
const ALIGN_LIMIT = 3000;

type Edit = { readonly op: ' ' | '-' | '+'; readonly line: string };

/**
 * A unified diff (`diff -u` style, 3 lines of context) from `before` to `after`, or '' when equal.
 *
 * @example
 * unifiedDiff('a.yaml', 'x: 1\n', 'x: 2\n'); // '--- a.yaml\n+++ a.yaml\n@@ -1 +1 @@\n-x: 1\n+x: 2\n'
 */
export function unifiedDiff(path: string, before: string, after: string): string {
  if (before === after) return '';
  const edits = diffLines(splitLines(before), splitLines(after));
  return [`--- ${path}`, `+++ ${path}`, ...hunks(edits)].join('\n') + '\n';
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function diffLines(a: readonly string[], b: readonly string[]): Edit[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const same = (lines: readonly string[]): Edit[] => lines.map((line) => ({ op: ' ', line }));
  return [
    ...same(a.slice(0, start)),
    ...alignMiddle(a.slice(start, endA), b.slice(start, endB)),
    ...same(a.slice(endA)),
  ];
}

/** Longest-common-subsequence alignment of the differing middle. */
function alignMiddle(a: readonly string[], b: readonly string[]): Edit[] {
  const removed = a.map((line): Edit => ({ op: '-', line }));
  const added = b.map((line): Edit => ({ op: '+', line }));
  if (a.length === 0 || b.length === 0 || a.length > ALIGN_LIMIT || b.length > ALIGN_LIMIT)
    return [...removed, ...added];
  const lengths = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      const row = lengths[i] as Uint32Array;
      row[j] =
        a[i] === b[j]
          ? (lengths[i + 1]?.[j + 1] ?? 0) + 1
          : Math.max(lengths[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const edits: Edit[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      edits.push({ op: ' ', line: a[i] ?? '' });
      i++;
      j++;
    } else if ((lengths[i + 1]?.[j] ?? 0) >= (lengths[i]?.[j + 1] ?? 0))
      edits.push({ op: '-', line: a[i++] ?? '' });
    else edits.push({ op: '+', line: b[j++] ?? '' });
  }
  return [...edits, ...removed.slice(i), ...added.slice(j)];
}

function hunks(edits: readonly Edit[]): string[] {
  const out: string[] = [];
  let index = 0;
  while (index < edits.length) {
    const change = edits.findIndex((edit, k) => k >= index && edit.op !== ' ');
    if (change < 0) break;
    const start = Math.max(index, change - CONTEXT);
    let end = change;
    while (end < edits.length) {
      const next = edits.findIndex((edit, k) => k > end && edit.op !== ' ');
      if (next < 0 || next - end > 2 * CONTEXT) break;
      end = next;
    }
    const stop = Math.min(edits.length, end + CONTEXT + 1);
    out.push(hunkHeader(edits, start, stop), ...edits.slice(start, stop).map((edit) => edit.op + edit.line));
    index = stop;
  }
  return out;
}

function hunkHeader(edits: readonly Edit[], start: number, stop: number): string {
  const before = edits.slice(0, start);
  const inside = edits.slice(start, stop);
  const oldStart = before.filter((e) => e.op !== '+').length + 1;
  const newStart = before.filter((e) => e.op !== '-').length + 1;
  const oldCount = inside.filter((e) => e.op !== '+').length;
  const newCount = inside.filter((e) => e.op !== '-').length;
  return `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`;
}

function range(start: number, count: number): string {
  if (count === 1) return String(start);
  return `${count === 0 ? start - 1 : start},${count}`;
}
