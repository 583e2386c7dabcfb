import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import ts from 'typescript';

const ROOT = new URL('../../../', import.meta.url).pathname;
const SNIPPET = new URL('./timestamp-typing.ts', import.meta.url).pathname;
const EXPECTED = /^\s*\/\/ @ts-expect-error TS(\d+):/;

interface LineError {
  readonly line: number;
  readonly code: number;
}

/** The errors the snippet's comments announce: each on the line below its comment (1-based). */
function announcedErrors(lines: readonly string[]): LineError[] {
  return lines.flatMap((text, index) => {
    const code = EXPECTED.exec(text)?.[1];
    return code === undefined ? [] : [{ line: index + 2, code: Number(code) }];
  });
}

/** Type-checks `text` as the snippet file, with the project's compiler options. */
function compile(text: string): LineError[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${ROOT}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) =>
        assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    },
  );
  assert.ok(config);
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) =>
    fileName === SNIPPET
      ? ts.createSourceFile(fileName, text, languageVersion, true)
      : getSourceFile(fileName, languageVersion, ...rest);
  const program = ts.createProgram({ rootNames: [SNIPPET], options: config.options, host });
  const file = program.getSourceFile(SNIPPET);
  assert.ok(file);
  return ts.getPreEmitDiagnostics(program, file).map((d) => ({
    line: file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1,
    code: d.code,
  }));
}

// What the runtime returns is the API server's JSON, whose timestamps are strings; client-node's
// models say Date. Code that calls a Date method on a read timestamp must not compile.
describe('timestamps in the runtime types', () => {
  const lines = readFileSync(SNIPPET, 'utf8').split('\n');

  it('refuses Date methods on read timestamps, and takes Dates and strings in writes', () => {
    const announced = announcedErrors(lines);
    assert.ok(announced.filter((e) => e.code === 2339).length >= 10, 'the snippet covers the reads');
    // The comments out of the way (a blank comment keeps the lines where they were): each announced
    // error is the compiler's, at its line, and there is no other.
    const bare = lines.map((text) => (EXPECTED.test(text) ? '//' : text)).join('\n');
    const byLine = (a: LineError, b: LineError): number => a.line - b.line || a.code - b.code;
    assert.deepEqual(compile(bare).sort(byLine), announced.sort(byLine));
  });

  it('compiles as written, its expected errors included', () => {
    assert.deepEqual(compile(lines.join('\n')), []);
  });
});
