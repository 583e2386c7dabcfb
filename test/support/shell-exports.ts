/** `export NAME=value`, alone on its line, as a command prints it for the reader to paste. */
const EXPORT_LINE = /^export ([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;

/**
 * The variables that the `export NAME=value` lines of `output` set, in order, with the value as the
 * shell reads it: single quotes taken literally (`'\''` for a quote), double quotes with `\"`, `\\`,
 * `\$` and `` \` `` unescaped, a bare value as it is. Only complete lines count.
 */
export function shellExports(output: string): [string, string][] {
  const complete = output.slice(0, output.lastIndexOf('\n') + 1);
  return complete.split('\n').flatMap((line): [string, string][] => {
    const match = EXPORT_LINE.exec(line.trim());
    return match ? [[match[1] ?? '', unquote(match[2] ?? '')]] : [];
  });
}

function unquote(value: string): string {
  if (/^'.*'$/.test(value) && value.length >= 2) return value.slice(1, -1).replaceAll(`'\\''`, `'`);
  if (/^".*"$/.test(value) && value.length >= 2) return value.slice(1, -1).replace(/\\(["\\$`])/g, '$1');
  return value;
}
