import { dump } from 'js-yaml';

/**
 * Stand-ins for Helm template actions while js-yaml serializes an object, which would quote or
 * escape the actions themselves: a value is replaced by a mark, the object dumped, and each mark's
 * line then rewritten into the action. A mark is a plain scalar, so js-yaml writes it unquoted; it
 * ends in `x` so that no mark is the start of another.
 */
export class ChartMarks {
  readonly #lines = new Map<string, (indent: string, key: string) => string>();
  readonly #inline = new Map<string, string>();

  /** A scalar replaced by an expression: `{{ .Values.manager.replicas }}`. */
  value(expression: string): string {
    const mark = this.#next();
    this.#inline.set(mark, `{{ ${expression} }}`);
    return mark;
  }

  /** A mapping entry whose value is a values object, written as `key: {{- toYaml ... }}`. */
  yaml(expression: string): string {
    return this.#line(
      (indent, key) => `${indent}${key} {{- toYaml ${expression} | nindent ${indent.length + 2} }}`,
    );
  }

  /** A list item kept only when `condition` holds; with `otherwise`, that item instead. */
  item(condition: string, value: unknown, otherwise?: unknown): string {
    return this.#line((indent) => {
      const item = (v: unknown): string => indented(dump([v], DUMP_OPTIONS), indent);
      const alternative = otherwise === undefined ? '' : `{{- else }}\n${item(otherwise)}`;
      return `{{- if ${condition} }}\n${item(value)}${alternative}{{- end }}`;
    });
  }

  /** A mapping entry kept only when `condition` holds. */
  entry(condition: string, key: string, value: unknown): string {
    return this.#line(
      (indent) =>
        `{{- if ${condition} }}\n${indented(dump({ [key]: value }, DUMP_OPTIONS), indent)}{{- end }}`,
    );
  }

  /** Rewrites the marks of dumped YAML into their actions. */
  apply(yaml: string): string {
    const lines = yaml.split('\n').map((line) => {
      const found = /^(\s*)(- |[^\s].*?: )?(TSOPERATORxMARKx\d+x)$/.exec(line);
      const render = found && this.#lines.get(found[3] ?? '');
      if (!found || !render) return line;
      return render(found[1] ?? '', (found[2] ?? '').trimEnd()).replace(/\n$/, '');
    });
    let text = lines.join('\n');
    for (const [mark, action] of this.#inline) text = text.replaceAll(mark, action);
    return text;
  }

  #line(render: (indent: string, key: string) => string): string {
    const mark = this.#next();
    this.#lines.set(mark, render);
    return mark;
  }

  #next(): string {
    return `TSOPERATORxMARKx${this.#lines.size + this.#inline.size}x`;
  }
}

const DUMP_OPTIONS = { lineWidth: -1, noRefs: true };

function indented(yaml: string, indent: string): string {
  return yaml
    .split('\n')
    .map((line) => (line === '' ? line : `${indent}${line}`))
    .join('\n');
}
