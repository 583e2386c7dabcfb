import type { InterfaceDeclaration, TypeAliasDeclaration } from 'ts-morph';
import { Node } from 'ts-morph';
import type { MarkerContext } from '../../markers/index.ts';
import { collectMarkers } from '../../markers/index.ts';
import { descriptionOf } from './description.ts';
import type { ParseContext } from './parse-context.ts';
import { parseObjectMembers } from './parse-object.ts';
import { parseType } from './parse-type.ts';
import type { NamedTypeModel, TypeModel } from './type-model.ts';

/**
 * The named types of an API, parsed on first use: a kind pulls in the types it references, across
 * files, and each is parsed once (which also makes recursive references terminate).
 */
export class ApiTypes {
  readonly #types = new Map<string, NamedTypeModel>();
  readonly #context: ParseContext;

  constructor(markers: MarkerContext) {
    this.#context = { markers, requestNamedType: (declaration) => this.request(declaration) };
  }

  /** Parses a declaration (once) and returns its id. */
  request(declaration: InterfaceDeclaration | TypeAliasDeclaration): string {
    const id = `${this.#context.markers.displayPath(declaration.getSourceFile())}#${declaration.getName()}`;
    if (this.#types.has(id)) return id;
    const placeholder: NamedTypeModel = { ...this.#header(declaration, id), type: { kind: 'invalid' } };
    this.#types.set(id, placeholder);
    this.#types.set(id, { ...placeholder, type: this.#parseBody(declaration) });
    return id;
  }

  /** Every type parsed so far: those requested and those they reference, in the order first met. */
  all(): NamedTypeModel[] {
    return [...this.#types.values()];
  }

  get(id: string): NamedTypeModel {
    const type = this.#types.get(id);
    if (!type) throw new Error(`type ${id} was never requested`);
    return type;
  }

  #header(
    declaration: InterfaceDeclaration | TypeAliasDeclaration,
    id: string,
  ): Omit<NamedTypeModel, 'type'> {
    const file = declaration.getSourceFile();
    const { line, column } = file.getLineAndColumnAtPos(declaration.getNameNode().getStart());
    return {
      id,
      name: declaration.getName(),
      markers: collectMarkers(declaration, 'type', this.#context.markers),
      description: descriptionOf(declaration),
      location: { file: this.#context.markers.displayPath(file), line, column },
    };
  }

  #parseBody(declaration: InterfaceDeclaration | TypeAliasDeclaration): TypeModel {
    if (Node.isTypeAliasDeclaration(declaration))
      return parseType(declaration.getTypeNodeOrThrow(), this.#context);
    const heritage = declaration.getHeritageClauses().flatMap((clause) => clause.getTypeNodes());
    return { kind: 'object', object: parseObjectMembers(declaration, heritage, this.#context) };
  }
}
