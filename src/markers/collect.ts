import type { Node, SourceFile } from 'ts-morph';
import { ts } from 'ts-morph';
import type { CommentBlock, CommentLine } from './comment-lines.ts';
import { isCodeGeneratorTag } from './code-generator-tags.ts';
import { commentLines, isMarkerLine } from './comment-lines.ts';
import type { MarkerTarget } from './definition.ts';
import type { SourceLocation } from './diagnostic.ts';
import { DiagnosticCodes } from './diagnostic.ts';
import type { DiagnosticList } from './diagnostic-list.ts';
import { parseMarker } from './marker-parser.ts';
import type { MarkerRegistry } from './registry.ts';
import type { ParsedMarker } from './marker-set.ts';
import { MarkerSet } from './marker-set.ts';

/** What marker collection needs: the registry, where to report, and how to show a file's path. */
export interface MarkerContext {
  readonly registry: MarkerRegistry;
  readonly diagnostics: DiagnosticList;
  /** The path shown in diagnostics, usually relative to the project root. */
  readonly displayPath: (file: SourceFile) => string;
}

/** Marker namespaces whose unknown names are typos to report; other `+` lines belong to other tools. */
const OWN_NAMESPACE = /^kubebuilder:(?!scaffold:|docs-gen:)/;
/** Kubernetes' own namespace: an unknown name there is worth a warning, not an error. */
const K8S_NAMESPACE = /^k8s:/;

/**
 * The comments before a node, grouped as Go groups them: consecutive `//` lines form one block, each
 * `/* *\/` comment is a block of its own.
 */
export function leadingCommentBlocks(node: Node): CommentBlock[] {
  const text = node.getSourceFile().getFullText();
  const ranges = ts.getLeadingCommentRanges(text, node.getPos()) ?? [];
  const blocks: CommentBlock[] = [];
  for (const range of ranges) {
    const lines = commentLines(text.slice(range.pos, range.end), range.pos);
    const previous = blocks.at(-1);
    const isLine = range.kind === ts.SyntaxKind.SingleLineCommentTrivia;
    if (
      isLine &&
      previous &&
      isLineRun(text, previous.end, range.pos) &&
      text.startsWith('//', previous.start)
    ) {
      blocks[blocks.length - 1] = {
        lines: [...previous.lines, ...lines],
        start: previous.start,
        end: range.end,
      };
    } else blocks.push({ lines, start: range.pos, end: range.end });
  }
  return blocks;
}

/**
 * The doc comment of a node: the comments directly above it, with no blank line in between (a
 * JSDoc block and `//` marker lines under it read as one comment, as one Go comment group).
 */
export function docCommentBlock(node: Node): CommentBlock | undefined {
  const text = node.getSourceFile().getFullText();
  const attached: CommentBlock[] = [];
  let next = node.getStart();
  for (const block of leadingCommentBlocks(node).reverse()) {
    if (text.slice(block.end, next).split('\n').length > 2) break;
    attached.unshift(block);
    next = block.start;
  }
  const [first, last] = [attached[0], attached.at(-1)];
  if (!first || !last) return undefined;
  return { lines: attached.flatMap((block) => block.lines), start: first.start, end: last.end };
}

function isLineRun(text: string, previousEnd: number, start: number): boolean {
  return text.slice(previousEnd, start).split('\n').length === 2;
}

/**
 * The markers written above a declaration standing at `target` (a type or a field), parsed into typed
 * values; problems go to `context.diagnostics` with their file:line:col.
 *
 * @example
 * const markers = collectMarkers(property, 'field', context);
 * const minimum = markers.value(validationMarkers.Minimum); // number | undefined
 */
export function collectMarkers(node: Node, target: MarkerTarget, context: MarkerContext): MarkerSet {
  const isFirstStatement = node.getSourceFile().getStatements()[0] === node;
  const lines = leadingCommentBlocks(node).flatMap((block) => block.lines);
  // The file's header comments lead its first statement too; package markers there are not misplaced.
  const report: Reporting = isFirstStatement ? 'allow-package' : 'all';
  return parseLines(node.getSourceFile(), lines, target, context, report);
}

/**
 * The package-level markers of a file (`+groupName`, `+versionName`, ...): those in the comments at
 * its top, before the first statement. Markers there that belong to the first declaration are left
 * for `collectMarkers`.
 */
export function collectFileMarkers(file: SourceFile, context: MarkerContext): MarkerSet {
  const text = file.getFullText();
  const ranges = ts.getLeadingCommentRanges(text, 0) ?? [];
  const lines = ranges.flatMap((r) => commentLines(text.slice(r.pos, r.end), r.pos));
  return parseLines(file, lines, 'package', context, 'none');
}

/** Which unknown or misplaced markers to report: header comments are read twice, reported once. */
type Reporting = 'all' | 'allow-package' | 'none';

function parseLines(
  file: SourceFile,
  lines: readonly CommentLine[],
  target: MarkerTarget,
  context: MarkerContext,
  report: Reporting,
): MarkerSet {
  const markers: ParsedMarker[] = [];
  for (const line of lines.filter(isMarkerLine)) {
    const leading = line.text.length - line.text.trimStart().length;
    const text = line.text.trim();
    const at = (offset: number): SourceLocation => locate(file, line.offset + leading + offset, context);
    const result = parseMarker(text.slice(1), target, context.registry);
    if (result.kind === 'parsed') {
      markers.push({ definition: result.definition, value: result.value, location: at(0), text });
    } else if (result.kind === 'error') {
      context.diagnostics.error(result.code, result.message, at(result.offset + 1));
    } else if (report === 'none' || (report === 'allow-package' && result.knownTargets.includes('package'))) {
      continue;
    } else if (result.knownTargets.length > 0) {
      const where = result.knownTargets.join(' or ');
      const message = `marker +${result.name} cannot stand on a ${target}; it belongs on a ${where}`;
      context.diagnostics.error(DiagnosticCodes.misplacedMarker, message, at(0));
    } else if (OWN_NAMESPACE.test(result.name)) {
      context.diagnostics.error(DiagnosticCodes.unknownMarker, `unknown marker +${result.name}`, at(0));
    } else if (K8S_NAMESPACE.test(result.name) && !isCodeGeneratorTag(result.name)) {
      context.diagnostics.warning(DiagnosticCodes.unknownK8sMarker, k8sMarkerWarning(result.name), at(0));
    }
  }
  return new MarkerSet(markers);
}

/**
 * `+k8s:validation:` tags are read by Kubernetes' openapi-gen, the others (`+k8s:maxLength`) by its
 * validation-gen; no CRD generator reads either, so the limit they mean is missing from the CRD.
 */
function k8sMarkerWarning(name: string): string {
  const crd = "CRD generation (tsoperator's or controller-gen's)";
  const readBy = name.startsWith('k8s:validation:')
    ? `is read by Kubernetes' openapi-gen, not by ${crd}`
    : `is not read by ${crd}, only by Kubernetes' own generators (validation-gen reads the declarative-validation tags)`;
  return `marker +${name} ${readBy}: it changes nothing in the CRD; a +kubebuilder:validation: marker would`;
}

function locate(file: SourceFile, offset: number, context: MarkerContext): SourceLocation {
  const { line, column } = file.getLineAndColumnAtPos(offset);
  return { file: context.displayPath(file), line, column };
}
