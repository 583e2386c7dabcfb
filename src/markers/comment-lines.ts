/** One line of a comment, without its comment syntax; `offset` is where `text` starts in the file. */
export interface CommentLine {
  readonly text: string;
  readonly offset: number;
}

/** A `//` run or one `/* *\/` block, as its lines. */
export interface CommentBlock {
  readonly lines: readonly CommentLine[];
  readonly start: number;
  readonly end: number;
}

/**
 * The lines of one comment (`// x` or a `/** ... *\/` block), stripped as Go strips comment text: the
 * `//` and one space after it; for blocks, the leading ` * ` of each line.
 */
export function commentLines(comment: string, start: number): CommentLine[] {
  if (comment.startsWith('//')) {
    const skip = comment[2] === ' ' ? 3 : 2;
    return [{ text: comment.slice(skip).trimEnd(), offset: start + skip }];
  }
  const lines: CommentLine[] = [];
  let lineStart = 0;
  for (const raw of comment.split('\n')) {
    lines.push(
      blockLine(raw, start + lineStart, lineStart === 0, lineStart + raw.length + 1 > comment.length),
    );
    lineStart += raw.length + 1;
  }
  return dropEmptyEdges(lines);
}

function blockLine(raw: string, offset: number, first: boolean, last: boolean): CommentLine {
  let from = first ? (raw.match(/^\/\*+/)?.[0].length ?? 0) : 0;
  let to = last ? raw.lastIndexOf('*/') : raw.length;
  if (to < 0) to = raw.length;
  if (!first) from = raw.match(/^\s*\*?/)?.[0].length ?? 0;
  if (raw[from] === ' ') from++;
  const text = raw.slice(from, Math.max(from, to)).trimEnd();
  return { text, offset: offset + from };
}

function dropEmptyEdges(lines: CommentLine[]): CommentLine[] {
  let first = 0;
  let last = lines.length;
  while (first < last && lines[first]?.text === '') first++;
  while (last > first && lines[last - 1]?.text === '') last--;
  return lines.slice(first, last);
}

/** True for a line that is a marker: its text starts with `+` (after spaces). */
export function isMarkerLine(line: CommentLine): boolean {
  return line.text.trimStart().startsWith('+');
}
