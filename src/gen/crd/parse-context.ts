import type { InterfaceDeclaration, Node, TypeAliasDeclaration } from 'ts-morph';
import type { DiagnosticCode, MarkerContext } from '../../markers/index.ts';

/** What the node parsers share: marker context, and a way to ask for a named type by declaration. */
export interface ParseContext {
  readonly markers: MarkerContext;
  /** Parses (once) a declaration into the type table and returns its id. */
  readonly requestNamedType: (declaration: InterfaceDeclaration | TypeAliasDeclaration) => string;
}

/** Reports an error at a node's file:line:col. */
export function reportAt(context: ParseContext, node: Node, code: DiagnosticCode, message: string): void {
  const file = node.getSourceFile();
  const { line, column } = file.getLineAndColumnAtPos(node.getStart());
  context.markers.diagnostics.error(code, message, { file: context.markers.displayPath(file), line, column });
}
