import type {
  ExpressionWithTypeArguments,
  InterfaceDeclaration,
  PropertySignature,
  TypeLiteralNode,
} from 'ts-morph';
import { Node } from 'ts-morph';
import { DiagnosticCodes, collectMarkers } from '../../markers/index.ts';
import { descriptionOf } from './description.ts';
import type { ParseContext } from './parse-context.ts';
import { reportAt } from './parse-context.ts';
import { parseNamedReference, parseType } from './parse-type.ts';
import type { FieldModel, ObjectModel, TypeModel } from './type-model.ts';

/** The fields of an interface or type literal, and the interfaces it extends. */
export function parseObjectMembers(
  node: InterfaceDeclaration | TypeLiteralNode,
  heritage: readonly ExpressionWithTypeArguments[],
  context: ParseContext,
): ObjectModel {
  const fields: FieldModel[] = [];
  for (const member of node.getMembers()) {
    if (Node.isPropertySignature(member)) fields.push(parseField(member, context));
    else
      reportAt(
        context,
        member,
        DiagnosticCodes.unmappableType,
        'only properties map to a schema; remove methods and index signatures',
      );
  }
  return { fields, embedded: heritage.map((clause) => parseHeritage(clause, context)) };
}

function parseField(property: PropertySignature, context: ParseContext): FieldModel {
  const typeNode = property.getTypeNode();
  const file = property.getSourceFile();
  const { line, column } = file.getLineAndColumnAtPos(property.getNameNode().getStart());
  if (!typeNode)
    reportAt(context, property, DiagnosticCodes.unmappableType, `field ${property.getName()} needs a type`);
  return {
    name: fieldName(property),
    type: typeNode ? parseType(typeNode, context) : { kind: 'invalid' },
    optional: property.hasQuestionToken(),
    markers: collectMarkers(property, 'field', context.markers),
    description: descriptionOf(property),
    location: { file: context.markers.displayPath(file), line, column },
  };
}

function fieldName(property: PropertySignature): string {
  const name = property.getNameNode();
  return Node.isStringLiteral(name) ? name.getLiteralValue() : name.getText();
}

/** `extends Base` embeds Base, as a Go struct embeds another with `json:",inline"`. */
function parseHeritage(clause: ExpressionWithTypeArguments, context: ParseContext): TypeModel {
  return parseNamedReference(clause, clause.getExpression().getText(), context);
}
