import type { JsonValue } from './argument-type.ts';
import { describeArgumentType } from './argument-type.ts';
import type { ArgumentSpec, MarkerDefinition, MarkerTarget } from './definition.ts';
import type { DiagnosticCode } from './diagnostic.ts';
import { DiagnosticCodes } from './diagnostic.ts';
import { parseArgument } from './argument-parser.ts';
import { argumentStart } from './argument-start.ts';
import { splitMarkerName } from './marker-name.ts';
import type { MarkerRegistry } from './registry.ts';
import { MarkerSyntaxError, Scanner } from './scanner.ts';

/** The outcome of parsing one marker's text; offsets count from the character after `+`. */
export type MarkerParseResult =
  | { readonly kind: 'parsed'; readonly definition: MarkerDefinition; readonly value: unknown }
  | { readonly kind: 'unknown'; readonly name: string; readonly knownTargets: readonly MarkerTarget[] }
  | {
      readonly kind: 'error';
      readonly code: DiagnosticCode;
      readonly message: string;
      readonly offset: number;
    };

class ArgumentError extends MarkerSyntaxError {
  readonly code: DiagnosticCode;

  constructor(code: DiagnosticCode, message: string, offset: number) {
    super(message, offset);
    this.code = code;
  }
}

/**
 * Parses the text of one marker (what follows the `+`) standing at `target` into its typed value.
 *
 * @example
 * const result = parseMarker('kubebuilder:validation:Minimum=1', 'field', registry);
 * if (result.kind === 'parsed') console.log(result.value); // 1
 * // `kubebuilder:validation:Minimum:=1`, Kubebuilder's other spelling, parses the same.
 */
export function parseMarker(text: string, target: MarkerTarget, registry: MarkerRegistry): MarkerParseResult {
  const name = splitMarkerName(text.trimEnd());
  const found = registry.lookup(name, target);
  if (!found) return { kind: 'unknown', name: name.full, knownTargets: registry.targetsOf(name) };
  const { definition } = found;
  const start = argumentStart(definition, name, found.short);
  if (start.kind === 'error') return start;
  const argumentsOffset = start.offset;
  const argumentText = stripTrailingComment(definition, text.trimEnd().slice(argumentsOffset));
  try {
    return { kind: 'parsed', definition, value: parseArguments(definition, argumentText) };
  } catch (error) {
    if (!(error instanceof MarkerSyntaxError)) throw error;
    const code = error instanceof ArgumentError ? error.code : DiagnosticCodes.markerSyntax;
    const message = `${error.message} in marker +${definition.name}`;
    return { kind: 'error', code, message, offset: argumentsOffset + error.offset };
  }
}

/** Kubernetes' declarative-validation tags (`+k8s:...`) allow a trailing `# comment`. */
function stripTrailingComment(definition: MarkerDefinition, text: string): string {
  if (!definition.name.startsWith('k8s:') || definition.arguments.kind === 'value') return text;
  const hash = text.indexOf('#');
  return hash < 0 ? text : text.slice(0, hash);
}

function parseArguments(definition: MarkerDefinition, text: string): unknown {
  const scanner = new Scanner(text);
  const value = parseByShape(definition, scanner);
  if (!scanner.atEnd()) {
    const rest = text.slice(scanner.position);
    throw new MarkerSyntaxError(`extra arguments provided: ${JSON.stringify(rest)}`, scanner.position);
  }
  return value;
}

function parseByShape(definition: MarkerDefinition, scanner: Scanner): unknown {
  const shape = definition.arguments;
  if (shape.kind === 'none') return true;
  if (shape.kind === 'value') return parseSingleValue(shape.argument, scanner);
  return parseFields(shape.fields, scanner);
}

function parseSingleValue(argument: ArgumentSpec, scanner: Scanner): unknown {
  if (!scanner.atEnd()) return parseTyped(argument, scanner, 'value');
  if (argument.default !== undefined) return argument.default;
  if (argument.optional) return undefined;
  throw new ArgumentError(DiagnosticCodes.missingArgument, 'missing value', scanner.position);
}

function parseFields(
  fields: Readonly<Record<string, ArgumentSpec>>,
  scanner: Scanner,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  while (!scanner.atEnd()) {
    const nameToken = scanner.next();
    if (nameToken.kind !== 'ident') {
      throw new MarkerSyntaxError(
        `expected argument name, got ${JSON.stringify(nameToken.text)}`,
        nameToken.start,
      );
    }
    const spec = Object.hasOwn(fields, nameToken.text) ? fields[nameToken.text] : undefined;
    if (!spec) {
      const known = Object.keys(fields).join(', ');
      const message = `unknown argument ${JSON.stringify(nameToken.text)} (known: ${known})`;
      throw new ArgumentError(DiagnosticCodes.unknownArgument, message, nameToken.start);
    }
    scanner.expect('=', 'equals sign');
    values[nameToken.text] = parseTyped(spec, scanner, nameToken.text);
    if (scanner.atEnd()) break;
    scanner.expect(',', 'comma');
  }
  return withDefaults(fields, values, scanner.position);
}

function withDefaults(
  fields: Readonly<Record<string, ArgumentSpec>>,
  values: Record<string, unknown>,
  endOffset: number,
): Record<string, unknown> {
  for (const [name, spec] of Object.entries(fields)) {
    if (name in values) continue;
    if (spec.default !== undefined) values[name] = spec.default;
    else if (!spec.optional) {
      throw new ArgumentError(
        DiagnosticCodes.missingArgument,
        `missing argument ${JSON.stringify(name)}`,
        endOffset,
      );
    }
  }
  return values;
}

function parseTyped(spec: ArgumentSpec, scanner: Scanner, label: string): JsonValue {
  const start = scanner.position;
  try {
    return parseArgument(scanner, spec.type);
  } catch (error) {
    if (!(error instanceof MarkerSyntaxError) || error instanceof ArgumentError) throw error;
    const expected = describeArgumentType(spec.type);
    const message = `invalid ${label === 'value' ? 'value' : `argument ${JSON.stringify(label)}`} (want ${expected}): ${error.message}`;
    throw new ArgumentError(DiagnosticCodes.invalidArgumentValue, message, Math.max(start, error.offset));
  }
}
