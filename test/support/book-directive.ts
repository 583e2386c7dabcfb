/**
 * A `<!-- book: ... -->` comment: how the runner of the book's pages treats the block below it.
 * The grammar is documented for page writers in docs/contributing/runnable-pages.md.
 */
export type BookDirective =
  | { readonly kind: 'background'; readonly until: string }
  | { readonly kind: 'eventually'; readonly seconds: number }
  | { readonly kind: 'not-run'; readonly why: string }
  | { readonly kind: 'write'; readonly path: string }
  | { readonly kind: 'copy'; readonly path: string; readonly from: string }
  | { readonly kind: 'stop'; readonly running: string };

/** A line that means to be a directive: an HTML comment that starts with `book:`. */
const DIRECTIVE_LINE = /^<!--\s*book:(.*?)-->$/;
/** A quoted argument: any text but a double quote, for it has no escapes. */
const QUOTED = '"([^"]+)"';
/** A path argument: relative, no spaces. */
const PATH = '([^\\s"]+)';

const FORMS: readonly { readonly pattern: RegExp; readonly make: (args: string[]) => BookDirective }[] = [
  {
    pattern: new RegExp(`^background until ${QUOTED}$`),
    make: ([until = '']) => ({ kind: 'background', until }),
  },
  {
    pattern: /^eventually ([1-9]\d*)$/,
    make: ([seconds = '']) => ({ kind: 'eventually', seconds: Number(seconds) }),
  },
  { pattern: new RegExp(`^not-run ${QUOTED}$`), make: ([why = '']) => ({ kind: 'not-run', why }) },
  { pattern: new RegExp(`^stop ${QUOTED}$`), make: ([running = '']) => ({ kind: 'stop', running }) },
  { pattern: new RegExp(`^write ${PATH}$`), make: ([path = '']) => ({ kind: 'write', path }) },
  {
    pattern: new RegExp(`^copy ${PATH} from ${PATH}$`),
    make: ([path = '', from = '']) => ({ kind: 'copy', path, from }),
  },
];

const USAGE =
  'background until "<text>" | eventually <seconds> | not-run "<why>" | stop "<command>" | write <path> | copy <path> from <folder>';

/**
 * The directive on `line`, undefined when the line is no `<!-- book: -->` comment; throws, saying
 * the forms it knows, on one it cannot read (a typo must not turn a block into one run by default).
 */
export function parseBookDirective(line: string): BookDirective | undefined {
  const comment = DIRECTIVE_LINE.exec(line.trim());
  if (!comment) {
    if (/^<!--\s*book\b/.test(line.trim())) throw new Error(`"${line.trim()}" is not a directive: ${USAGE}`);
    return undefined;
  }
  const body = (comment[1] ?? '').trim().replace(/\s+/g, ' ');
  for (const { pattern, make } of FORMS) {
    const match = pattern.exec(body);
    if (match) {
      const directive = make(match.slice(1));
      for (const path of pathsOf(directive)) {
        if (path.startsWith('/') || path.split('/').includes('..')) {
          throw new Error(`"${path}" in "${line.trim()}" must be a relative path without ..`);
        }
      }
      return directive;
    }
  }
  throw new Error(`"${line.trim()}" is not a directive: ${USAGE}`);
}

function pathsOf(directive: BookDirective): string[] {
  if (directive.kind === 'write') return [directive.path];
  if (directive.kind === 'copy') return [directive.path, directive.from];
  return [];
}
