import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import { parseBookDirective, type BookDirective } from './book-directive.ts';

/** What the runner does for one block of a page, in page order; `line` is the block's first line (1-based). */
export type BookStep =
  | { readonly kind: 'run'; readonly line: number; readonly code: string }
  | { readonly kind: 'background'; readonly line: number; readonly code: string; readonly until: string }
  | { readonly kind: 'eventually'; readonly line: number; readonly code: string; readonly seconds: number }
  | { readonly kind: 'not-run'; readonly line: number; readonly code: string; readonly why: string }
  | { readonly kind: 'stop'; readonly line: number; readonly code: string; readonly running: string }
  | { readonly kind: 'write'; readonly line: number; readonly path: string; readonly content: string }
  | { readonly kind: 'copy'; readonly line: number; readonly path: string; readonly from: string };

/** A page cut into the pieces the runner tells apart; blank lines separate prose paragraphs. */
type Piece =
  | { readonly type: 'fence'; readonly line: number; readonly lang: string; readonly code: string }
  | { readonly type: 'directive'; readonly line: number; readonly directive: BookDirective }
  | { readonly type: 'include'; readonly line: number; readonly target: string }
  | { readonly type: 'prose'; readonly line: number; readonly text: string };

const FENCE_OPEN = /^(\s*)(`{3,}|~{3,})\s*([^\s`{]*)/;
/** VitePress's code snippet: `<<< @/path#region{lines lang} [title]`; the target is the path alone. */
const INCLUDE = /^\s*<<<\s*([^\s#{[]+)/;

/** A page's steps, read from `file`; errors name the file and line. */
export async function readBookPage(file: string, name: string = file): Promise<BookStep[]> {
  try {
    return parseBookPage(await readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(`${name}:${(err as Error).message}`, { cause: err });
  }
}

/**
 * The steps of a page: every ```sh block, and every block or include a directive marks, in order.
 * Throws `<line>: <what is wrong>` for a directive that stands before nothing it applies to, two
 * directives on one block, or a not-run block whose reason the page does not say next to it.
 */
export function parseBookPage(markdown: string): BookStep[] {
  const pieces = cutIntoPieces(markdown.split('\n'));
  const steps: BookStep[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    if (piece?.type === 'fence' && piece.lang === 'sh')
      steps.push({ kind: 'run', line: piece.line, code: piece.code });
    if (piece?.type !== 'directive') continue;
    const target = pieces[i + 1];
    steps.push(stepFor(piece, target, pieces[i - 1], pieces[i + 2]));
    i++;
  }
  return steps;
}

function stepFor(
  at: Extract<Piece, { type: 'directive' }>,
  target: Piece | undefined,
  before: Piece | undefined,
  after: Piece | undefined,
): BookStep {
  const { directive, line } = at;
  if (directive.kind === 'copy') {
    const expected = `@/${posix.join(directive.from, directive.path)}`;
    if (target?.type !== 'include' || posix.normalize(target.target) !== expected) {
      throw new Error(`${line}: the copy directive must stand right before \`<<< ${expected}\``);
    }
    return { kind: 'copy', line: target.line, path: directive.path, from: directive.from };
  }
  if (target?.type !== 'fence') throw new Error(`${line}: the directive stands before no code block`);
  if (directive.kind === 'write')
    return { kind: 'write', line: target.line, path: directive.path, content: target.code };
  if (target.lang !== 'sh')
    throw new Error(`${line}: the ${directive.kind} directive applies to a \`\`\`sh block`);
  const block = { line: target.line, code: target.code };
  if (directive.kind === 'background') return { kind: 'background', ...block, until: directive.until };
  if (directive.kind === 'eventually') return { kind: 'eventually', ...block, seconds: directive.seconds };
  if (directive.kind === 'stop') return { kind: 'stop', ...block, running: directive.running };
  const prose = [before, after].flatMap((p) => (p?.type === 'prose' ? [plain(p.text)] : []));
  if (!prose.some((text) => text.includes(plain(directive.why)))) {
    throw new Error(
      `${line}: the block is not run, so the paragraph right before or after it must say why, with the words "${directive.why}"`,
    );
  }
  return { kind: 'not-run', ...block, why: directive.why };
}

/** Prose as read: case, line breaks, backticks and emphasis asterisks aside. */
function plain(text: string): string {
  return text.replace(/[`*]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

function cutIntoPieces(lines: readonly string[]): Piece[] {
  const pieces: Piece[] = [];
  let prose: { line: number; lines: string[] } | undefined;
  const endProse = (): void => {
    if (prose) pieces.push({ type: 'prose', line: prose.line, text: prose.lines.join('\n') });
    prose = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] ?? '';
    const open = FENCE_OPEN.exec(text);
    const directive = open ? undefined : parseDirectiveAt(text, i + 1);
    const include = INCLUDE.exec(text);
    if (open || directive || include || text.trim() === '' || text.startsWith('#')) endProse();
    if (open) {
      const [, indent = '', fence = '', lang = ''] = open;
      const end = closingLine(lines, i, fence);
      const code = lines.slice(i + 1, end).map((l) => stripIndent(l, indent.length));
      pieces.push({ type: 'fence', line: i + 1, lang, code: `${code.join('\n')}\n` });
      i = end;
    } else if (directive) pieces.push({ type: 'directive', line: i + 1, directive });
    else if (include) pieces.push({ type: 'include', line: i + 1, target: include[1] ?? '' });
    else if (text.trim() !== '') {
      prose ??= { line: i + 1, lines: [] };
      prose.lines.push(text);
      if (text.startsWith('#')) endProse();
    }
  }
  endProse();
  return pieces;
}

function parseDirectiveAt(text: string, line: number): BookDirective | undefined {
  try {
    return parseBookDirective(text);
  } catch (err) {
    throw new Error(`${line}: ${(err as Error).message}`, { cause: err });
  }
}

/** The index of the line that closes the fence opened at `open`: the same character, at least as long. */
function closingLine(lines: readonly string[], open: number, fence: string): number {
  for (let i = open + 1; i < lines.length; i++) {
    const close = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[i] ?? '');
    if (close?.[1]?.[0] === fence[0] && (close?.[1]?.length ?? 0) >= fence.length) return i;
  }
  throw new Error(`${open + 1}: the code block is never closed`);
}

/** A fenced line without the fence's own indentation (a block in a list item is indented). */
function stripIndent(line: string, width: number): string {
  const leading = /^\s*/.exec(line)?.[0].length ?? 0;
  return line.slice(Math.min(leading, width));
}
