import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { load, loadAll } from 'js-yaml';

/** What a chart's templates may read: `.Values` and `.Release`. */
export interface TemplateContext {
  readonly Values: unknown;
  readonly Release: { readonly Namespace: string; readonly Name: string };
}

/**
 * Renders the Helm template subset the generated charts use, so that tests need no Helm binary:
 * `{{ .Values.a.b }}`, `{{ .Release.Namespace }}` and string literals `{{ "{{" }}`. Anything else
 * throws, so a chart that starts using more fails here rather than passing unrendered.
 */
export function renderTemplate(text: string, context: TemplateContext): string {
  return text.replaceAll(/\{\{(.*?)\}\}/g, (_action, expression: string) =>
    evaluate(expression.trim(), context),
  );
}

function evaluate(expression: string, context: TemplateContext): string {
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
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new Error(`{{ ${expression} }} is not a scalar`);
}

/** Renders every template of a chart folder with its values.yaml, and parses the objects. */
export async function renderChart(chartDir: string, namespace: string): Promise<unknown[]> {
  const values = load(await readFile(join(chartDir, 'values.yaml'), 'utf8'));
  const context: TemplateContext = { Values: values, Release: { Namespace: namespace, Name: 'release' } };
  const names = (await readdir(join(chartDir, 'templates'))).filter((n) => n.endsWith('.yaml')).sort();
  const objects: unknown[] = [];
  for (const name of names) {
    const text = await readFile(join(chartDir, 'templates', name), 'utf8');
    objects.push(...loadAll(renderTemplate(text, context)).filter((o) => o !== null));
  }
  return objects;
}
