import type { ArgumentType, JsonValue } from './argument-type.ts';
import { MarkerSyntaxError, Scanner, quoteToken, unquote } from './scanner.ts';

/**
 * Parses one argument value of type `type` at the scanner's position, leaving the scanner after it.
 * `inList` is true for list items, where `;` separates items instead of forming a nested list.
 */
export function parseArgument(scanner: Scanner, type: ArgumentType, inList = false): JsonValue {
  if (typeof type !== 'string')
    return 'list' in type ? parseList(scanner, type.list) : parseMap(scanner, type.map);
  switch (type) {
    case 'int':
      return parseInteger(scanner);
    case 'number':
      return parseNumber(scanner);
    case 'bool':
      return parseBool(scanner);
    case 'string':
      return parseString(scanner, false);
    case 'json':
      return parseJson(scanner);
    case 'any':
      return parseArgument(scanner, guessType(scanner, !inList), true);
  }
}

function parseInteger(scanner: Scanner): number {
  const negative = consumeMinus(scanner);
  const token = scanner.next();
  if (token.kind !== 'int')
    throw new MarkerSyntaxError(`expected integer, got ${quoteToken(token)}`, token.start);
  const value = Number(token.text.replace(/_/g, ''));
  if (!Number.isSafeInteger(value))
    throw new MarkerSyntaxError(`unable to parse integer ${token.text}`, token.start);
  return negative ? -value : value;
}

function parseNumber(scanner: Scanner): number {
  const negative = consumeMinus(scanner);
  const token = scanner.next();
  const value = Number(token.text.replace(/_/g, ''));
  if ((token.kind !== 'int' && token.kind !== 'float') || Number.isNaN(value)) {
    throw new MarkerSyntaxError(`expected integer or float, got ${quoteToken(token)}`, token.start);
  }
  return negative ? -value : value;
}

function consumeMinus(scanner: Scanner): boolean {
  if (scanner.peek() !== '-') return false;
  scanner.next();
  return true;
}

function parseBool(scanner: Scanner): boolean {
  const token = scanner.next();
  if (token.kind === 'ident' && (token.text === 'true' || token.text === 'false'))
    return token.text === 'true';
  throw new MarkerSyntaxError(`expected true or false, got ${quoteToken(token)}`, token.start);
}

/** A quoted string, or bare text up to the next `,`, `;`, `}` (or `:` inside a map), trimmed. */
function parseString(scanner: Scanner, inMap: boolean): string {
  const first = scanner.peek();
  if (first === '"' || first === '`' || first === "'") return unquote(scanner.next());
  const start = scanner.position;
  let end = start;
  for (let char = scanner.peek(); !isDelimiter(char, inMap); char = scanner.peek()) end = scanner.next().end;
  return scanner.text.slice(start, end);
}

function isDelimiter(char: string, inMap: boolean): boolean {
  return char === ',' || char === ';' || char === '}' || char === '' || (inMap && char === ':');
}

/** The `+default=<json>` form: everything left is one JSON value; `ref(...)` defaults are not schema data. */
function parseJson(scanner: Scanner): JsonValue {
  scanner.skipSpace();
  const start = scanner.position;
  const rest = scanner.text.slice(start);
  scanner.position = scanner.text.length;
  if (rest.trimStart().startsWith('ref(')) return null;
  try {
    return JSON.parse(rest) as JsonValue;
  } catch {
    throw new MarkerSyntaxError(`expected a JSON value, got ${JSON.stringify(rest)}`, start);
  }
}

function parseList(scanner: Scanner, item: ArgumentType): JsonValue[] {
  const values: JsonValue[] = [];
  if (scanner.peek() === '{') {
    scanner.next();
    while (scanner.peek() !== '}' && scanner.peek() !== '') {
      values.push(parseArgument(scanner, item, true));
      if (scanner.peek() === '}') break;
      scanner.expect(',', 'comma');
    }
    scanner.expect('}', 'close curly brace');
    return values;
  }
  for (let char = scanner.peek(); char !== ',' && char !== '}' && char !== ''; char = scanner.peek()) {
    values.push(parseArgument(scanner, item, true));
    const next = scanner.peek();
    if (next === ',' || next === '}' || next === '') break;
    scanner.expect(';', 'semicolon');
  }
  return values;
}

function parseMap(scanner: Scanner, item: ArgumentType): Record<string, JsonValue> {
  const values: Record<string, JsonValue> = {};
  scanner.expect('{', 'open curly brace');
  while (scanner.peek() !== '}' && scanner.peek() !== '') {
    const key = parseString(scanner, true);
    scanner.expect(':', 'colon');
    values[key] = parseArgument(scanner, item, false);
    if (scanner.peek() === '}') break;
    scanner.expect(',', 'comma');
  }
  scanner.expect('}', 'close curly brace');
  return values;
}

/** Guesses the type of an `any` argument from its text, as controller-gen does; never consumes. */
function guessType(scanner: Scanner, allowList: boolean): ArgumentType {
  const item = guessScalarOrBraced(scanner);
  if (!allowList) return item;
  const ahead = new Scanner(scanner.text);
  ahead.position = scanner.position;
  let token = ahead.next();
  while (token.kind !== 'eof' && !(token.kind === 'punct' && (token.text === ',' || token.text === ';'))) {
    token = ahead.next();
  }
  return token.text === ';' && token.kind === 'punct' ? { list: item } : item;
}

function guessScalarOrBraced(scanner: Scanner): ArgumentType {
  const ahead = new Scanner(scanner.text);
  ahead.position = scanner.position;
  const hint = ahead.peek();
  if (hint === '"' || hint === "'" || hint === '`') return 'string';
  if (hint === '{') return guessBraced(ahead);
  const token = ahead.next();
  if (token.kind === 'ident') return token.text === 'true' || token.text === 'false' ? 'bool' : 'string';
  const numberToken = token.text === '-' ? ahead.next() : token;
  if (numberToken.kind === 'int' || numberToken.kind === 'float') {
    const follow = ahead.peek();
    if (follow === ',' || follow === ';' || follow === '}' || follow === '') {
      return numberToken.kind === 'int' ? 'int' : 'number';
    }
  }
  return 'string';
}

/** `{a: 1}` is a map, `{a,b}` a list of the first element's type. */
function guessBraced(ahead: Scanner): ArgumentType {
  ahead.next();
  const closesAtOnce = ahead.peek() === '}';
  const first = guessScalarOrBraced(ahead);
  if (first === 'string') {
    parseString(ahead, true);
    if (closesAtOnce || ahead.peek() === ':') return { map: 'any' };
  }
  return { list: first };
}
