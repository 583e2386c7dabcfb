import { compareYamlKeys } from './go-key-order.ts';
import { scalarStyle } from './go-scalar.ts';
import type { ScalarStyle } from './go-scalar.ts';
import type { YamlValue } from './yaml-value.ts';

/** go-yaml's preferred line width: plain and quoted scalars fold at a space past this column. */
const BEST_WIDTH = 80;

/**
 * Writes one YAML document the way sigs.k8s.io/yaml (go-yaml v2) writes it, so generated manifests
 * match those of Go tools byte for byte: keys sorted, sequences not indented under their key,
 * long strings folded at column 80, multi-line strings as literal blocks.
 *
 * @example
 * writeYaml({ kind: 'List', items: [] }); // 'items: []\nkind: List\n'
 */
export function writeYaml(value: YamlValue): string {
  const lines: string[] = [];
  writeBlock(value, 0, lines);
  return `${lines.join('\n')}\n`;
}

/**
 * Appends the lines of `value` to `out`. One array serves the whole document: nested blocks
 * returned as arrays and copied into their parents' cost time in proportion to depth, and a pod
 * template is twenty levels deep.
 */
function writeBlock(value: YamlValue, indent: number, out: string[]): void {
  if (Array.isArray(value)) writeSequence(value as readonly YamlValue[], indent, out);
  else if (isMapping(value)) writeMapping(value, indent, out);
  else out.push(' '.repeat(indent) + scalarLines(value, indent, indent).join('\n'));
}

function isMapping(value: YamlValue): value is { readonly [key: string]: YamlValue | undefined } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function entries(value: { readonly [key: string]: YamlValue | undefined }): [string, YamlValue][] {
  return Object.entries(value)
    .filter((entry): entry is [string, YamlValue] => entry[1] !== undefined)
    .sort(([a], [b]) => compareYamlKeys(a, b));
}

function isEmptyCollection(value: YamlValue): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (!isMapping(value)) return false;
  // Checked without sorting or copying: this runs on every nested value.
  for (const key in value) if (value[key] !== undefined) return false;
  return true;
}

function writeMapping(
  value: { readonly [key: string]: YamlValue | undefined },
  indent: number,
  out: string[],
): void {
  const pad = ' '.repeat(indent);
  for (const [key, child] of entries(value)) {
    const head = `${pad}${keyText(key)}:`;
    if (isEmptyCollection(child)) out.push(`${head} ${Array.isArray(child) ? '[]' : '{}'}`);
    else if (Array.isArray(child)) {
      out.push(head);
      writeSequence(child as readonly YamlValue[], indent, out);
    } else if (isMapping(child)) {
      out.push(head);
      writeMapping(child, indent + 2, out);
    } else {
      const [first = '', ...rest] = scalarLines(child, indent + 2, head.length + 1);
      out.push(`${head} ${first}`, ...rest);
    }
  }
}

function writeSequence(items: readonly YamlValue[], indent: number, out: string[]): void {
  const pad = ' '.repeat(indent);
  for (const item of items) {
    if (isEmptyCollection(item)) out.push(`${pad}- ${Array.isArray(item) ? '[]' : '{}'}`);
    else if (Array.isArray(item) || isMapping(item)) {
      // The item's first line carries the dash, in place of its indentation.
      const first = out.length;
      writeBlock(item, indent + 2, out);
      out[first] = `${pad}- ${(out[first] ?? '').slice(indent + 2)}`;
    } else {
      const [first = '', ...rest] = scalarLines(item, indent + 2, indent + 2);
      out.push(`${pad}- ${first}`, ...rest);
    }
  }
}

function keyText(key: string): string {
  const style = styleOf(key);
  if (style === 'plain') return key;
  return style === 'single' ? `'${key.replace(/'/g, "''")}'` : JSON.stringify(key);
}

/**
 * Keys and descriptions repeat across CRDs (every container of a pod template has the same ones),
 * and deciding a style runs several regular expressions over the text: each text is decided once.
 */
const styles = new Map<string, ScalarStyle>();

function styleOf(text: string): ScalarStyle {
  let style = styles.get(text);
  if (style === undefined) {
    style = scalarStyle(text);
    styles.set(text, style);
  }
  return style;
}

/** A scalar starting at `column`; continuation lines (folds, literal blocks) are indented by `indent`. */
function scalarLines(value: YamlValue, indent: number, column: number): string[] {
  if (value === null) return ['null'];
  if (typeof value === 'boolean') return [String(value)];
  if (typeof value === 'number') return [formatNumber(value)];
  const text = value as string;
  switch (styleOf(text)) {
    case 'plain':
      return fold(text, indent, column, false);
    case 'single':
      return fold(`'${text.replace(/'/g, "''")}'`, indent, column, true);
    case 'literal':
      return literal(text, indent);
    case 'double':
      return [JSON.stringify(text).replace(/[\u{10000}-\u{10ffff}]/gu, goYamlEscape)];
  }
}

/** go-yaml writes a character past U+FFFF in a double-quoted scalar as `\U` and eight hex digits. */
function goYamlEscape(char: string): string {
  return `\\U${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(8, '0')}`;
}

/** go-yaml breaks at a single space once the line is past the width, never at the ends. */
function fold(text: string, indent: number, column: number, quoted: boolean): string[] {
  // A text that ends before the width, or has no space to break at, stays on one line.
  if (column + text.length <= BEST_WIDTH + 1 || !text.includes(' ')) return [text];
  const lines: string[] = [];
  let prefix = '';
  let lineStart = 0;
  let startColumn = column;
  // Only spaces can break a line, so jump from space to space instead of walking every character.
  for (let i = text.indexOf(' '); i >= 0; i = text.indexOf(' ', i + 1)) {
    const inside = !quoted || (i > 1 && i < text.length - 2);
    const column = startColumn + (i - lineStart);
    if (inside && text[i - 1] !== ' ' && text[i + 1] !== ' ' && column > BEST_WIDTH) {
      lines.push(prefix + text.slice(lineStart, i));
      prefix = ' '.repeat(indent);
      lineStart = i + 1;
      startColumn = indent;
    }
  }
  lines.push(prefix + text.slice(lineStart));
  return lines;
}

function literal(text: string, indent: number): string[] {
  const trailing = /\n+$/.exec(text)?.[0].length ?? 0;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  const indicator = text.startsWith(' ') ? String(2) : '';
  const body = trailing === 0 ? text : text.slice(0, -trailing);
  const pad = ' '.repeat(indent);
  const lines = body.split('\n').map((line) => (line === '' ? '' : pad + line));
  return [`|${indicator}${chomp}`, ...lines, ...Array.from({ length: Math.max(0, trailing - 1) }, () => '')];
}

/** Integers as integers; other numbers as Go's strconv 'g' formatting writes them. */
function formatNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value);
  return String(value).replace(/e([+-])(\d)$/, 'e$10$2');
}
