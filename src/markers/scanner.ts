/** A token of marker argument text, in the lexical grammar of Go's text/scanner, which controller-gen uses. */
export interface Token {
  readonly kind: 'ident' | 'int' | 'float' | 'string' | 'punct' | 'eof';
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** Raised while parsing marker arguments; `offset` points into the argument text. */
export class MarkerSyntaxError extends Error {
  readonly offset: number;

  constructor(message: string, offset: number) {
    super(message);
    this.offset = offset;
  }
}

const IDENT_START = /[A-Za-z_]/;
const IDENT_PART = /[A-Za-z0-9_]/;
const DIGIT = /[0-9]/;
const NUMBER_PART = /[0-9A-Za-z_.]/;

/** A cursor over marker argument text that yields Go-style tokens and can peek past whitespace. */
export class Scanner {
  readonly text: string;
  position = 0;

  constructor(text: string) {
    this.text = text;
  }

  /** The next non-space character, without consuming it; '' at the end. */
  peek(): string {
    this.skipSpace();
    return this.text[this.position] ?? '';
  }

  skipSpace(): void {
    while (this.position < this.text.length && /\s/.test(this.text[this.position] ?? '')) this.position++;
  }

  atEnd(): boolean {
    return this.peek() === '';
  }

  next(): Token {
    this.skipSpace();
    const start = this.position;
    const char = this.text[start];
    if (char === undefined) return { kind: 'eof', text: '', start, end: start };
    if (IDENT_START.test(char)) return this.#take('ident', start, IDENT_PART);
    if (DIGIT.test(char) || (char === '.' && DIGIT.test(this.text[start + 1] ?? '')))
      return this.#number(start);
    if (char === '"' || char === '`' || char === "'") return this.#quoted(start, char);
    this.position++;
    return { kind: 'punct', text: char, start, end: this.position };
  }

  /** Consumes the next token and fails unless it is `text` (a punctuation character). */
  expect(text: string, description: string): Token {
    const token = this.next();
    if (token.text !== text || token.kind === 'string') {
      throw new MarkerSyntaxError(`expected ${description}, got ${quoteToken(token)}`, token.start);
    }
    return token;
  }

  #take(kind: Token['kind'], start: number, part: RegExp): Token {
    this.position++;
    while (this.position < this.text.length && part.test(this.text[this.position] ?? '')) this.position++;
    return { kind, text: this.text.slice(start, this.position), start, end: this.position };
  }

  #number(start: number): Token {
    this.position++;
    while (this.position < this.text.length) {
      const char = this.text[this.position] ?? '';
      const previous = this.text[this.position - 1] ?? '';
      const signedExponent = (char === '-' || char === '+') && /[eE]/.test(previous);
      if (!NUMBER_PART.test(char) && !signedExponent) break;
      this.position++;
    }
    const text = this.text.slice(start, this.position);
    const isFloat = !/^0[xX]/.test(text) && /[.eE]/.test(text);
    return { kind: isFloat ? 'float' : 'int', text, start, end: this.position };
  }

  #quoted(start: number, quote: string): Token {
    this.position++;
    while (this.position < this.text.length && this.text[this.position] !== quote) {
      if (quote !== '`' && this.text[this.position] === '\\') this.position++;
      this.position++;
    }
    if (this.position >= this.text.length) throw new MarkerSyntaxError('unterminated string', start);
    this.position++;
    return { kind: 'string', text: this.text.slice(start, this.position), start, end: this.position };
  }
}

export function quoteToken(token: Token): string {
  return token.kind === 'eof' ? 'end of marker' : JSON.stringify(token.text);
}

/** The value of a quoted string token: Go escapes for `"` and `'`, nothing for backticks. */
export function unquote(token: Token): string {
  const body = token.text.slice(1, -1);
  if (token.text.startsWith('`')) return body;
  try {
    return JSON.parse(`"${body.replace(/\\'/g, "'").replace(/(?<!\\)"/g, '\\"')}"`) as string;
  } catch {
    throw new MarkerSyntaxError(`unable to parse string ${token.text}`, token.start);
  }
}
