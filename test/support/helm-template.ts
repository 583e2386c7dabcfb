import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dump, load, loadAll } from 'js-yaml';

/** What a chart's templates may read: `.Values` and `.Release`. */
export interface TemplateContext {
  readonly Values: unknown;
  readonly Release: { readonly Namespace: string; readonly Name: string };
}

/** A piece of a template: text, or the inside of one `{{ }}` action. */
type Piece = { readonly text: string } | { readonly action: string };

/**
 * Renders the Helm template subset the generated charts use, so that tests need no Helm binary:
 * `{{ .Values.a.b }}`, `{{ .Release.Namespace }}`, string literals `{{ "{{" }}`, `{{- if X }}`,
 * `{{- else }}`, `{{- end }}` with `and` and `not`, and `{{- toYaml X | nindent N }}`, with Helm's
 * whitespace trimming (`{{-` and `-}}`) and truthiness. Anything else throws, so a chart that
 * starts using more fails here rather than passing unrendered.
 */
export function renderTemplate(text: string, context: TemplateContext): string {
  const pieces = [...trimmedPieces(text)];
  let index = 0;
  const block = (): { output: string; ended: string | undefined } => {
    let output = '';
    while (index < pieces.length) {
      const piece = pieces[index++];
      if (piece === undefined) break;
      if ('text' in piece) {
        output += piece.text;
        continue;
      }
      const action = piece.action;
      if (action === 'end' || action === 'else') return { output, ended: action };
      if (action.startsWith('if ')) {
        const condition = truthy(evaluate(action.slice(3).trim(), context));
        const then = block();
        const otherwise = then.ended === 'else' ? block() : { output: '', ended: then.ended };
        if (otherwise.ended !== 'end') throw new Error(`{{ ${action} }} has no {{ end }}`);
        output += condition ? then.output : otherwise.output;
        continue;
      }
      output += scalar(action, evaluate(action, context));
    }
    return { output, ended: undefined };
  };
  const rendered = block();
  if (rendered.ended !== undefined) throw new Error(`an unmatched {{ ${rendered.ended} }}`);
  return rendered.output;
}

/** The template's text and actions, with the whitespace that `{{-` and `-}}` trim removed. */
function* trimmedPieces(text: string): Generator<Piece> {
  const pattern = /\{\{(-?)\s*(.*?)\s*(-?)\}\}/g;
  let last = 0;
  let trimNext = false;
  for (const match of text.matchAll(pattern)) {
    let before = text.slice(last, match.index);
    if (trimNext) before = before.trimStart();
    if (match[1] === '-') before = before.trimEnd();
    if (before !== '') yield { text: before };
    yield { action: match[2] ?? '' };
    trimNext = match[3] === '-';
    last = match.index + match[0].length;
  }
  const rest = trimNext ? text.slice(last).trimStart() : text.slice(last);
  if (rest !== '') yield { text: rest };
}

function evaluate(expression: string, context: TemplateContext): unknown {
  const piped = /^toYaml (\S+) \| nindent (\d+)$/.exec(expression);
  if (piped) {
    const yaml = dump(evaluate(piped[1] ?? '', context), { lineWidth: -1 }).replace(/\n$/, '');
    const indent = ' '.repeat(Number(piped[2]));
    return `\n${yaml
      .split('\n')
      .map((line) => indent + line)
      .join('\n')}`;
  }
  const and = /^and (\S+) (\S+)$/.exec(expression);
  if (and) return truthy(evaluate(and[1] ?? '', context)) && truthy(evaluate(and[2] ?? '', context));
  const not = /^not (\S+)$/.exec(expression);
  if (not) return !truthy(evaluate(not[1] ?? '', context));
  const literal = /^"((?:[^"\\]|\\.)*)"$/.exec(expression);
  if (literal) return JSON.parse(`"${literal[1] ?? ''}"`) as string;
  if (!/^(\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(expression)) {
    throw new Error(`the chart uses a template action this renderer does not know: {{ ${expression} }}`);
  }
  let value: unknown = context;
  for (const key of expression.slice(1).split('.')) {
    if (value === null || typeof value !== 'object' || !(key in value)) {
      throw new Error(`{{ ${expression} }} names no value`);
    }
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** As Go templates print a value: scalars only here. */
function scalar(expression: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new Error(`{{ ${expression} }} is not a scalar`);
}

/** Go templates' truth: false, 0, nil and empty strings, lists and maps are false. */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

/**
 * Renders every template of a chart folder with its values.yaml, overridden by `values` (merged
 * key by key, as `helm install --set` does), and parses the objects.
 */
export async function renderChart(
  chartDir: string,
  namespace: string,
  values: object = {},
): Promise<unknown[]> {
  const defaults = load(await readFile(join(chartDir, 'values.yaml'), 'utf8'));
  const context: TemplateContext = {
    Values: mergeValues(defaults, values),
    Release: { Namespace: namespace, Name: 'release' },
  };
  const names = (await readdir(join(chartDir, 'templates'))).filter((n) => n.endsWith('.yaml')).sort();
  const objects: unknown[] = [];
  for (const name of names) {
    const text = await readFile(join(chartDir, 'templates', name), 'utf8');
    objects.push(...loadAll(renderTemplate(text, context)).filter((o) => o !== null));
  }
  return objects;
}

/** `overrides` laid over `base`, maps merged key by key. */
export function mergeValues(base: unknown, overrides: unknown): unknown {
  if (!isMap(base) || !isMap(overrides)) return overrides;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overrides)) merged[key] = mergeValues(base[key], value);
  return merged;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
