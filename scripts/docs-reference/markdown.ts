// Markdown pieces the reference pages are built from. The pages are VitePress pages: Vue reads
// their text as a template, so a `<` outside code would open an element and `{{` an interpolation.

/** `text` as an inline code span, however many backticks it holds. */
export function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = longest > 0 || text.startsWith(' ') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * Prose from the code (a help text, a description) as Markdown text: its backtick spans are kept as
 * code, the rest is escaped so it reads as written.
 */
export function prose(text: string): string {
  if (text.includes('{{')) throw new Error(`VitePress would read {{ in ${JSON.stringify(text)} as Vue`);
  return text
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith('`') && part.endsWith('`') ? part : escapeText(part)))
    .join('');
}

/** Escapes what Markdown or Vue would read as syntax; `_` inside a word (`work_duration`) is plain. */
function escapeText(text: string): string {
  return text.replace(/[\\*[\]]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, (c) => `\\${c}`).replace(/</g, '&lt;');
}

/** A help text as a sentence: capitalised, with its full stop. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  const capitalised = /^[a-z]/.test(trimmed) ? trimmed[0]?.toUpperCase() + trimmed.slice(1) : trimmed;
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

/** A GitHub-flavoured table; `|` in a cell, even in its code spans, is escaped as the syntax asks. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The parts of a page: its title, the generated-page note, its sections, and where to read next. */
export interface Page {
  readonly title: string;
  /** What the page is generated from, for the note under its title. */
  readonly source: string;
  readonly sections: readonly string[];
  readonly readNext: string;
}

/** The page as Markdown, before Prettier. */
export function renderPage(page: Page): string {
  const note = `_Generated from ${page.source} by \`node scripts/gen-docs-reference.ts\`: do not edit this page by hand._`;
  return [`# ${page.title}`, note, ...page.sections, `Read next: ${page.readNext}`].join('\n\n') + '\n';
}
