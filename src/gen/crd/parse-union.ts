import type { LiteralTypeNode, TypeNode, UnionTypeNode } from 'ts-morph';
import { Node, SyntaxKind } from 'ts-morph';
import type { ParseContext } from './parse-context.ts';
import { parseType, unmappable } from './parse-type.ts';
import type { EnumLiteral, TypeModel } from './type-model.ts';

/**
 * A union (or a single literal): `T | null` is nullable T, `undefined` members are dropped (`?` says
 * that), and a union of literals of one primitive type is an enum.
 */
export function parseUnion(node: UnionTypeNode | LiteralTypeNode, context: ParseContext): TypeModel {
  const members = Node.isUnionTypeNode(node) ? node.getTypeNodes() : [node];
  const nullable = members.some(isNull);
  const rest = members.filter(
    (member) => !isNull(member) && member.getKind() !== SyntaxKind.UndefinedKeyword,
  );
  const inner = parseMembers(node, rest, context);
  return nullable && inner.kind !== 'invalid' ? { kind: 'nullable', inner } : inner;
}

function parseMembers(node: TypeNode, members: readonly TypeNode[], context: ParseContext): TypeModel {
  const literals = members.map(literalValue);
  if (members.length > 0 && literals.every((value) => value !== undefined)) {
    return enumOf(node, literals, context);
  }
  const [only] = members;
  if (members.length === 1 && only) return parseType(only, context);
  const hint =
    'only unions of literals and `T | null` map to a schema; use IntOrString for `string | number`';
  return unmappable(node, context, hint);
}

function enumOf(node: TypeNode, values: EnumLiteral[], context: ParseContext): TypeModel {
  const types = new Set(values.map((value) => typeof value as 'string' | 'number' | 'boolean'));
  const [type] = types;
  if (types.size !== 1 || type === undefined) {
    return unmappable(node, context, 'the literals of an enum must all be strings, numbers or booleans');
  }
  if (type === 'boolean' && values.length === 2 && values[0] !== values[1])
    return { kind: 'primitive', type };
  return { kind: 'enum', type, values };
}

function isNull(node: TypeNode): boolean {
  return Node.isLiteralTypeNode(node) && node.getLiteral().getKind() === SyntaxKind.NullKeyword;
}

function literalValue(node: TypeNode): EnumLiteral | undefined {
  if (!Node.isLiteralTypeNode(node)) return undefined;
  const literal = node.getLiteral();
  if (Node.isStringLiteral(literal) || Node.isNoSubstitutionTemplateLiteral(literal))
    return literal.getLiteralValue();
  if (Node.isNumericLiteral(literal)) return literal.getLiteralValue();
  if (Node.isPrefixUnaryExpression(literal)) return -Number(literal.getOperand().getText());
  if (literal.getKind() === SyntaxKind.TrueKeyword) return true;
  if (literal.getKind() === SyntaxKind.FalseKeyword) return false;
  return undefined;
}
