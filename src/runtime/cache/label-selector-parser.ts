import { labelKeyErrors } from './label-syntax.ts';
import {
  labelRequirement,
  LabelSelectorError,
  type LabelOperator,
  type LabelRequirement,
  type LabelSelector,
} from './label-selector.ts';

/** The tokens of a selector: operators and punctuation by their text, and identifiers. */
type TokenKind = 'end' | 'id' | 'in' | 'notin' | '(' | ')' | ',' | '!' | '=' | '==' | '!=' | '>' | '<';

interface Token {
  readonly kind: TokenKind;
  readonly text: string;
}

const SYMBOLS = new Set(['=', '!', '(', ')', ',', '>', '<']);
const WHITESPACE = new Set([' ', '\t', '\r', '\n']);
const BINARY: Partial<Record<TokenKind, LabelOperator>> = {
  in: 'in',
  notin: 'notin',
  '=': 'in',
  '==': 'in',
  '!=': 'notin',
  '>': 'gt',
  '<': 'lt',
};

/**
 * Parses a label selector with the grammar and checks of the API server (apimachinery's
 * labels.Parse): requirements joined by commas, each `key`, `!key`, `key=v`, `key==v`, `key!=v`,
 * `key in (v,...)`, `key notin (v,...)`, `key>n` or `key<n` (n an integer). Throws a
 * {@link LabelSelectorError} worded as the API server's refusal of the same selector.
 *
 * @example
 * ```ts
 * const selector = parseLabelSelector('tier in (web,api),replicas>2,!canary');
 * matchesLabels(selector, { tier: 'web', replicas: '3' }); // true
 * ```
 */
export function parseLabelSelector(text: string): LabelSelector {
  return new SelectorParser(tokenize(text)).parse();
}

/** Splits at whitespace and symbols; `==` and `!=` are one token, `in` and `notin` keywords. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  for (;;) {
    while (i < text.length && WHITESPACE.has(text[i] ?? '')) i++;
    if (i >= text.length) break;
    const c = text[i] ?? '';
    if (SYMBOLS.has(c)) {
      const pair = text.slice(i, i + 2);
      const symbol = pair === '==' || pair === '!=' ? pair : c;
      tokens.push({ kind: symbol as TokenKind, text: symbol });
      i += symbol.length;
      continue;
    }
    let end = i;
    while (end < text.length && !SYMBOLS.has(text[end] ?? '') && !WHITESPACE.has(text[end] ?? '')) end++;
    const word = text.slice(i, end);
    tokens.push({ kind: word === 'in' || word === 'notin' ? word : 'id', text: word });
    i = end;
  }
  tokens.push({ kind: 'end', text: '' });
  return tokens;
}

/** A recursive-descent reading of the tokens; `in`/`notin` are plain words where a value may stand. */
class SelectorParser {
  readonly #tokens: readonly Token[];
  #at = 0;

  constructor(tokens: readonly Token[]) {
    this.#tokens = tokens;
  }

  parse(): LabelSelector {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const next = this.#peek(true);
      if (next.kind === 'end') return requirements;
      if (next.kind !== 'id' && next.kind !== '!') {
        throw new LabelSelectorError(`found '${next.text}', expected: !, identifier, or 'end of string'`);
      }
      requirements.push(this.#requirement());
      const after = this.#take(true);
      if (after.kind === 'end') return requirements;
      if (after.kind !== ',') {
        throw new LabelSelectorError(`found '${after.text}', expected: ',' or 'end of string'`);
      }
      const following = this.#peek(true);
      if (following.kind !== 'id' && following.kind !== '!') {
        throw new LabelSelectorError(`found '${following.text}', expected: identifier after ','`);
      }
    }
  }

  #requirement(): LabelRequirement {
    try {
      const { key, unary } = this.#key();
      if (unary) return labelRequirement(key, unary, []);
      const { op, set } = this.#operator();
      const values = set ? this.#valueSet() : [this.#exactValue()];
      return labelRequirement(key, op, [...new Set(values)].sort());
    } catch (err) {
      if (err instanceof LabelSelectorError) {
        throw new LabelSelectorError(`unable to parse requirement: ${err.message}`);
      }
      throw err;
    }
  }

  /** The key, and `exists` or `!` when nothing but a comma or the end follows it. */
  #key(): { key: string; unary: LabelOperator | undefined } {
    let token = this.#take(true);
    const negated = token.kind === '!';
    if (negated) token = this.#take(true);
    if (token.kind !== 'id') throw new LabelSelectorError(`found '${token.text}', expected: identifier`);
    const errors = labelKeyErrors(token.text);
    if (errors.length > 0) {
      // The API server checks the key with no field path, and says so.
      throw new LabelSelectorError(
        `<nil>: Invalid value: ${JSON.stringify(token.text)}: ${errors.join('; ')}`,
      );
    }
    const next = this.#peek(true).kind;
    const unary = negated ? '!' : next === 'end' || next === ',' ? 'exists' : undefined;
    return { key: token.text, unary };
  }

  /** The operator, and whether a set of values in parentheses follows it. */
  #operator(): { op: LabelOperator; set: boolean } {
    const token = this.#take(false);
    const op = BINARY[token.kind];
    if (op === undefined) {
      throw new LabelSelectorError(`found '${token.text}', expected: in, notin, =, ==, !=, gt, lt`);
    }
    return { op, set: token.kind === 'in' || token.kind === 'notin' };
  }

  /** `(a,b,...)`: empty members are the empty value, and `()` is the empty value alone. */
  #valueSet(): string[] {
    const open = this.#take(true);
    if (open.kind !== '(') throw new LabelSelectorError(`found '${open.text}' expected: '('`);
    const first = this.#peek(true);
    if (first.kind === ')') {
      this.#take(true);
      return [''];
    }
    if (first.kind !== 'id' && first.kind !== ',') {
      throw new LabelSelectorError(`found '${first.text}', expected: ',', ')' or identifier`);
    }
    const values: string[] = [];
    let expectValue = true;
    for (;;) {
      const token = this.#take(true);
      if (token.kind === 'id' && expectValue) {
        values.push(token.text);
        expectValue = false;
        const next = this.#peek(true);
        if (next.kind === ')') break;
        if (next.kind !== ',') throw new LabelSelectorError(`found '${next.text}', expected: ',' or ')'`);
      } else if (token.kind === ',') {
        // A comma with no value before it stands for the empty value, as does one before `)`.
        if (expectValue) values.push('');
        expectValue = true;
        if (this.#peek(true).kind === ')') {
          values.push('');
          break;
        }
      } else {
        throw new LabelSelectorError(`found '${token.text}', expected: ',', or identifier`);
      }
    }
    this.#take(true);
    return values;
  }

  /** The value after `=`, `==`, `!=`, `>` or `<`: empty when a comma or the end follows. */
  #exactValue(): string {
    const next = this.#peek(true);
    if (next.kind === 'end' || next.kind === ',') return '';
    const token = this.#take(true);
    if (token.kind !== 'id') throw new LabelSelectorError(`found '${token.text}', expected: identifier`);
    return token.text;
  }

  /** The next token; where a value may stand (`asValue`), `in` and `notin` are identifiers. */
  #peek(asValue: boolean): Token {
    const token = this.#tokens[Math.min(this.#at, this.#tokens.length - 1)] ?? { kind: 'end', text: '' };
    return asValue && (token.kind === 'in' || token.kind === 'notin') ? { ...token, kind: 'id' } : token;
  }

  #take(asValue: boolean): Token {
    const token = this.#peek(asValue);
    this.#at++;
    return token;
  }
}
