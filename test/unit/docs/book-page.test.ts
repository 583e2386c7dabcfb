import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBookPage } from '../../support/book-page.ts';
import { shellExports } from '../../support/shell-exports.ts';

const page = (...lines: string[]): string => lines.join('\n');

// The directives page writers put before a block: what each one makes of the block, and the
// mistakes that must fail the test rather than silently run or skip a block.
describe('a page of the book, read for its blocks', () => {
  it('takes the sh blocks in order, with the directives before them, and leaves other blocks alone', () => {
    const steps = parseBookPage(
      page(
        '# Title',
        '',
        '```sh',
        'cd project',
        '```',
        '',
        '```yaml',
        'shown: only',
        '```',
        '',
        '<!-- book: background until "export KUBECONFIG=" -->',
        '',
        '```sh',
        'tsoperator envtest start',
        '```',
        '',
        '<!--   book:   eventually   30   -->',
        '```sh',
        'kubectl get jobs',
        '```',
        '',
        'Not run here: it pushes to your registry.',
        '',
        '<!-- book: not-run "pushes to your registry" -->',
        '',
        '```sh',
        'make docker-push',
        '```',
        '',
        '- In a list:',
        '',
        '  <!-- book: write src/a.ts -->',
        '',
        '  ```ts',
        '  export const a = 1;',
        '  ```',
        '',
        '<!-- book: copy src/b.ts from tutorial/projects/demo -->',
        '',
        '<<< @/tutorial/projects/demo/src/b.ts#types{2-3} [b.ts]',
      ),
    );
    assert.deepEqual(steps, [
      { kind: 'run', line: 3, code: 'cd project\n' },
      { kind: 'background', line: 13, code: 'tsoperator envtest start\n', until: 'export KUBECONFIG=' },
      { kind: 'eventually', line: 18, code: 'kubectl get jobs\n', seconds: 30 },
      { kind: 'not-run', line: 26, code: 'make docker-push\n', why: 'pushes to your registry' },
      { kind: 'write', line: 34, path: 'src/a.ts', content: 'export const a = 1;\n' },
      { kind: 'copy', line: 40, path: 'src/b.ts', from: 'tutorial/projects/demo' },
    ]);
  });

  it('takes the reason of a not-run block from the paragraph after it too, markup and case aside', () => {
    const steps = parseBookPage(
      page(
        '<!-- book: not-run "needs a real cluster" -->',
        '```sh',
        'kubectl apply',
        '```',
        '',
        'This *Needs a',
        '`real` cluster.',
      ),
    );
    assert.equal(steps[0]?.kind, 'not-run');
  });

  it('fails a not-run block whose reason the page does not give next to it', () => {
    assert.throws(
      () =>
        parseBookPage(
          page(
            'It pushes to a registry.',
            '',
            'Another paragraph.',
            '',
            '<!-- book: not-run "pushes to a registry" -->',
            '```sh',
            'make push',
            '```',
          ),
        ),
      /^Error: 5: the block is not run, so the paragraph right before or after it must say why, with the words "pushes to a registry"$/,
    );
  });

  it('fails a directive it cannot read, rather than running the block as an undirected one', () => {
    assert.throws(
      () => parseBookPage(page('<!-- book: backgrund until "x" -->', '```sh', 'x', '```')),
      /^Error: 1: "<!-- book: backgrund until "x" -->" is not a directive: background until/,
    );
    assert.throws(
      () => parseBookPage(page('<!-- book: eventually soon -->', '```sh', 'x', '```')),
      /is not a directive/,
    );
    assert.throws(
      () => parseBookPage(page('<!-- book: write ../outside.ts -->', '```ts', 'x', '```')),
      /must be a relative path without \.\./,
    );
  });

  it('fails a directive that stands before no block it applies to', () => {
    assert.throws(
      () => parseBookPage(page('<!-- book: eventually 5 -->', '', 'prose', '```sh', 'x', '```')),
      /^Error: 1: the directive stands before no code block$/,
    );
    assert.throws(
      () => parseBookPage(page('<!-- book: eventually 5 -->', '```yaml', 'x: 1', '```')),
      /the eventually directive applies to a ```sh block/,
    );
    assert.throws(
      () =>
        parseBookPage(
          page('<!-- book: eventually 5 -->', '<!-- book: eventually 6 -->', '```sh', 'x', '```'),
        ),
      /^Error: 1: the directive stands before no code block$/,
    );
    assert.throws(
      () =>
        parseBookPage(
          page('<!-- book: copy src/a.ts from projects/demo -->', '<<< @/projects/other/src/a.ts'),
        ),
      /^Error: 1: the copy directive must stand right before `<<< @\/projects\/demo\/src\/a\.ts`$/,
    );
    assert.throws(
      () => parseBookPage(page('```sh', 'never closed')),
      /^Error: 1: the code block is never closed$/,
    );
  });
});

describe('export lines a background block prints', () => {
  it('are read as the shell reads them', () => {
    assert.deepEqual(
      shellExports(
        [
          "export KUBECONFIG='/tmp/a b/admin.kubeconfig'",
          `export QUOTED="say \\"hi\\" for \\$5"`,
          'export BARE=value=with=equals',
          "export IT='it'\\''s'",
          'not an export KUBECONFIG=x',
          'export PARTIAL=not-a-whole-line',
        ].join('\n'),
      ),
      [
        ['KUBECONFIG', '/tmp/a b/admin.kubeconfig'],
        ['QUOTED', 'say "hi" for $5'],
        ['BARE', 'value=with=equals'],
        ['IT', "it's"],
      ],
    );
  });
});
