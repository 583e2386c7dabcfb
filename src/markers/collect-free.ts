import type { SourceFile } from 'ts-morph';
import { ts } from 'ts-morph';
import { commentLines, isMarkerLine } from './comment-lines.ts';
import type { CommentLine } from './comment-lines.ts';
import type { MarkerContext } from './collect.ts';
import type { MarkerDefinition } from './definition.ts';
import { parseMarker } from './marker-parser.ts';
import { splitMarkerName } from './marker-name.ts';
import { MarkerRegistry } from './registry.ts';
import type { ParsedMarker } from './marker-set.ts';
import { MarkerSet } from './marker-set.ts';

/**
 * The markers of `definitions` wherever they stand in a file: above a class, a method, or alone.
 * Kubebuilder users put `+kubebuilder:rbac` above their reconciler and `+kubebuilder:webhook` above
 * their webhook, and controller-gen reads them as package markers from any comment that is not a
 * type's or field's doc, so they are looked for in every comment. Other markers are left alone.
 */
export function collectFreeMarkers(
  file: SourceFile,
  definitions: readonly MarkerDefinition[],
  context: MarkerContext,
): MarkerSet {
  const text = file.getFullText();
  if (!definitions.some((d) => text.includes(`+${d.name}`))) return new MarkerSet();
  const registry = new MarkerRegistry(definitions);
  const markers: ParsedMarker[] = [];
  for (const line of allCommentLines(file).filter(isMarkerLine)) {
    const leading = line.text.length - line.text.trimStart().length;
    const marker = line.text.trim();
    const name = splitMarkerName(marker.slice(1));
    if (!registry.lookup(name, 'package')) continue;
    const { line: row, column } = file.getLineAndColumnAtPos(line.offset + leading);
    const location = { file: context.displayPath(file), line: row, column };
    const result = parseMarker(marker.slice(1), 'package', registry);
    if (result.kind === 'parsed') {
      markers.push({ definition: result.definition, value: result.value, location, text: marker });
    } else if (result.kind === 'error') {
      const at = file.getLineAndColumnAtPos(line.offset + leading + 1 + result.offset);
      context.diagnostics.error(result.code, result.message, {
        ...location,
        line: at.line,
        column: at.column,
      });
    }
  }
  return new MarkerSet(markers);
}

/**
 * Every line of every comment in the file, in source order, found through the tokens' trivia:
 * leading (on lines of their own) and trailing (after code on the same line).
 */
function allCommentLines(file: SourceFile): CommentLine[] {
  const source = file.compilerNode;
  const text = source.getFullText();
  const ranges = new Map<number, ts.CommentRange>();
  const visit = (node: ts.Node): void => {
    for (const range of ts.getLeadingCommentRanges(text, node.pos) ?? []) ranges.set(range.pos, range);
    for (const range of ts.getTrailingCommentRanges(text, node.end) ?? []) ranges.set(range.pos, range);
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...ranges.values()]
    .sort((a, b) => a.pos - b.pos)
    .flatMap((range) => commentLines(text.slice(range.pos, range.end), range.pos));
}
