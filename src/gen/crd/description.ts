import type { Node } from 'ts-morph';
import { docCommentBlock, isMarkerLine } from '../../markers/index.ts';

/**
 * The description of a declaration, cleaned as controller-gen cleans Go doc comments: markers
 * dropped, blank edges trimmed, runs of blank lines collapsed, `TODO` lines skipped and everything
 * after a `---` line cut (Kubernetes' own conventions), except inside fenced code blocks.
 */
export function descriptionOf(node: Node): string {
  const block = docCommentBlock(node);
  if (!block) return '';
  const lines = collapseBlankLines(
    block.lines.filter((line) => !isMarkerLine(line)).map((line) => line.text),
  );
  const kept: string[] = [];
  let inCodeBlock = false;
  for (const line of lines) {
    if (line.startsWith('```') || line.startsWith('~~~')) inCodeBlock = !inCodeBlock;
    if (!inCodeBlock && line.startsWith('TODO')) continue;
    if (!inCodeBlock && line.startsWith('---')) break;
    kept.push(line);
  }
  return kept.join('\n');
}

function collapseBlankLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (line === '' && (out.length === 0 || out.at(-1) === '')) continue;
    out.push(line);
  }
  while (out.at(-1) === '') out.pop();
  return out;
}
