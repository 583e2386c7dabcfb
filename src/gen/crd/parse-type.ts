import type { TypeNode, TypeReferenceNode } from 'ts-morph';
import { Node, SyntaxKind } from 'ts-morph';
import { DiagnosticCodes } from '../../markers/index.ts';
import { hasKnownType } from './known-types/index.ts';
import type { ParseContext } from './parse-context.ts';
import { reportAt } from './parse-context.ts';
import { parseObjectMembers } from './parse-object.ts';
import { parseUnion } from './parse-union.ts';
import { resolveTypeName } from './resolve-type-name.ts';
import type { TypeModel } from './type-model.ts';

const KEYWORDS: Partial<Record<SyntaxKind, TypeModel>> = {
  [SyntaxKind.StringKeyword]: { kind: 'primitive', type: 'string' },
  [SyntaxKind.BooleanKeyword]: { kind: 'primitive', type: 'boolean' },
  [SyntaxKind.NumberKeyword]: { kind: 'primitive', type: 'number' },
  [SyntaxKind.UnknownKeyword]: { kind: 'unknown' },
};

/** Runtime type names and the schema they stand for. */
const RUNTIME_TYPES: Readonly<Record<string, TypeModel>> = {
  int: { kind: 'integer' },
  int32: { kind: 'integer', format: 'int32' },
  int64: { kind: 'integer', format: 'int64' },
  Bytes: { kind: 'bytes' },
  RawExtension: { kind: 'known', name: 'RawExtension' },
  Quantity: { kind: 'known', name: 'Quantity' },
  IntOrString: { kind: 'known', name: 'IntOrString' },
  Time: { kind: 'known', name: 'Time' },
  MicroTime: { kind: 'known', name: 'MicroTime' },
  Duration: { kind: 'known', name: 'Duration' },
  ObjectMeta: { kind: 'known', name: 'V1ObjectMeta' },
  Condition: { kind: 'known', name: 'V1Condition' },
};

/** Parses a TypeScript type node into the type model; what cannot be mapped is reported, never guessed. */
export function parseType(node: TypeNode, context: ParseContext): TypeModel {
  const keyword = KEYWORDS[node.getKind()];
  if (keyword) return keyword;
  if (Node.isParenthesizedTypeNode(node)) return parseType(node.getTypeNode(), context);
  if (Node.isArrayTypeNode(node))
    return { kind: 'array', items: parseType(node.getElementTypeNode(), context) };
  if (Node.isTypeOperatorTypeNode(node) && node.getOperator() === SyntaxKind.ReadonlyKeyword) {
    return parseType(node.getTypeNode(), context);
  }
  if (Node.isUnionTypeNode(node)) return parseUnion(node, context);
  if (Node.isLiteralTypeNode(node)) return parseUnion(node, context);
  if (Node.isTypeLiteral(node)) return { kind: 'object', object: parseObjectMembers(node, [], context) };
  if (Node.isIntersectionTypeNode(node)) return parseIntersection(node.getTypeNodes(), context);
  if (Node.isTypeReference(node)) return parseReference(node, context);
  return unmappable(node, context, mappingHint(node));
}

function parseIntersection(parts: readonly TypeNode[], context: ParseContext): TypeModel {
  const literals = parts.filter((part) => Node.isTypeLiteral(part));
  const embedded = parts.filter((part) => !Node.isTypeLiteral(part)).map((part) => parseType(part, context));
  const objects = literals.map((literal) => parseObjectMembers(literal, [], context));
  return { kind: 'object', object: { fields: objects.flatMap((o) => o.fields), embedded } };
}

function parseReference(node: TypeReferenceNode, context: ParseContext): TypeModel {
  const name = node.getTypeName().getText();
  const args = node.getTypeArguments();
  if ((name === 'Array' || name === 'ReadonlyArray') && args[0]) {
    return { kind: 'array', items: parseType(args[0], context) };
  }
  if (name === 'Record' && args[0] && args[1]) {
    if (!isStringKey(args[0], new Set())) {
      return unmappable(args[0], context, 'map keys must be `string` or a type alias of `string`');
    }
    return { kind: 'map', values: parseType(args[1], context) };
  }
  if (args.length === 1 && args[0] && isRuntimeJson(node, name)) return parseType(args[0], context);
  if (args.length > 0)
    return unmappable(node, context, 'generic types cannot be mapped; declare a named type');
  return parseNamedReference(node, name, context);
}

/**
 * Whether a map key is `string` or an alias of it (`type Key = string`, Go's `map[Key]string`): the
 * JSON keys are strings either way, and controller-gen writes the same schema, the key's markers
 * left out. `seen` stops alias cycles.
 */
function isStringKey(node: TypeNode, seen: Set<Node>): boolean {
  if (node.getKind() === SyntaxKind.StringKeyword) return true;
  if (!Node.isTypeReference(node) || node.getTypeArguments().length > 0) return false;
  const resolution = resolveTypeName(node.getSourceFile(), node.getTypeName().getText());
  if (resolution.kind !== 'declaration' || !Node.isTypeAliasDeclaration(resolution.declaration)) return false;
  const aliased = resolution.declaration.getTypeNode();
  if (aliased === undefined || seen.has(aliased)) return false;
  seen.add(aliased);
  return isStringKey(aliased, seen);
}

/**
 * Whether `name` is the runtime's `Json<T>`: T as the API server's JSON carries it (client-node's
 * Dates as strings), which is T's schema. A field typed `Json<V1JobTemplateSpec>` reads honestly
 * in a reconciler and gets V1JobTemplateSpec's schema, as if the wrapper were not there.
 */
function isRuntimeJson(node: TypeReferenceNode, name: string): boolean {
  const resolution = resolveTypeName(node.getSourceFile(), name);
  return resolution.kind === 'runtime' && resolution.name === 'Json';
}

/** The model of a type named `name` at `node`: an API type, a runtime type or a known core type. */
export function parseNamedReference(node: Node, name: string, context: ParseContext): TypeModel {
  const resolution = resolveTypeName(node.getSourceFile(), name);
  switch (resolution.kind) {
    case 'declaration':
      return { kind: 'named', id: context.requestNamedType(resolution.declaration) };
    case 'runtime':
      return (
        RUNTIME_TYPES[resolution.name] ??
        unmappable(node, context, `the runtime exports no API type ${resolution.name}`)
      );
    case 'package':
      if (resolution.module === '@kubernetes/client-node' && hasKnownType(resolution.name)) {
        return { kind: 'known', name: resolution.name };
      }
      return unmappable(node, context, `no schema is known for ${resolution.name} from ${resolution.module}`);
    case 'missing':
      reportAt(
        context,
        node,
        DiagnosticCodes.unresolvedType,
        `cannot find type ${name}; export it from a file under src/api`,
      );
      return { kind: 'invalid' };
  }
}

function mappingHint(node: TypeNode): string {
  if (node.getKind() === SyntaxKind.AnyKeyword) return 'use `unknown` to keep arbitrary JSON';
  if (Node.isTupleTypeNode(node)) return 'tuples have no structural schema; use an array or an interface';
  return 'use an interface, an array, Record<string, T>, a union of literals or a runtime type';
}

/** Reports `node` as unmappable and returns the model's placeholder for it. */
export function unmappable(node: Node, context: ParseContext, hint: string): TypeModel {
  reportAt(
    context,
    node,
    DiagnosticCodes.unmappableType,
    `type \`${node.getText()}\` cannot be mapped to a schema: ${hint}`,
  );
  return { kind: 'invalid' };
}
