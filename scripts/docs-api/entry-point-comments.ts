import { readFileSync } from 'node:fs';
import { ts } from 'ts-morph';

/** What the runtime's entry point says in its own comments, which TypeDoc does not read. */
export interface EntryPointComments {
  /** The file's opening comment. */
  readonly introduction: string;
  /** By concept (the folder an export comes from), each comment above an `export ... from`, in order. */
  readonly concepts: ReadonlyMap<string, readonly string[]>;
}

/** A doc comment's first paragraph on one line: without `/**`, `*`, `*\/` and block tags. */
function firstParagraph(raw: string): string {
  const lines: string[] = raw
    .replace(/^\/\*\*|\*\/$/g, '')
    .split('\n')
    .map((line: string): string => line.replace(/^\s*\* ?/, '').trim());
  const start: number = lines.findIndex((line: string): boolean => line !== '');
  const end: number = lines.findIndex(
    (line: string, i: number): boolean => i > start && (line === '' || line.startsWith('@')),
  );
  return lines.slice(start, end === -1 ? undefined : end).join(' ');
}

/**
 * The entry point's comments: there, a comment stands above each group of exports and reads as the
 * cheat-sheet of that group; the Runtime API pages open with them, so they are written once.
 */
export function readEntryPointComments(entryPoint: string): EntryPointComments {
  const text: string = readFileSync(entryPoint, 'utf8');
  const file: ts.SourceFile = ts.createSourceFile(entryPoint, text, ts.ScriptTarget.Latest, false);
  const docs = (node: ts.Node): ts.CommentRange[] =>
    (ts.getLeadingCommentRanges(text, node.pos) ?? []).filter((c) => text.startsWith('/**', c.pos));
  const concepts = new Map<string, string[]>();
  for (const statement of file.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier) continue;
    if (!ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const concept: string | undefined = statement.moduleSpecifier.text.split('/')[1];
    const doc: ts.CommentRange | undefined = docs(statement).at(-1);
    if (concept === undefined || doc === undefined) continue;
    concepts.set(concept, [...(concepts.get(concept) ?? []), firstParagraph(text.slice(doc.pos, doc.end))]);
  }
  const opening: ts.CommentRange | undefined = file.statements[0] ? docs(file.statements[0])[0] : undefined;
  return { introduction: opening ? firstParagraph(text.slice(opening.pos, opening.end)) : '', concepts };
}
