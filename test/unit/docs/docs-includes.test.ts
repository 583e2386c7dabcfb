import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { includeProblems } from '../../support/docs-includes.ts';

// VitePress builds a page whose include it cannot honour and shows the wrong thing (the whole file,
// nothing, or an error message in a code block): the browser test reads the pages' includes here.
describe('the includes of the book', () => {
  let docs: string;

  before(async () => {
    docs = await mkdtemp(join(tmpdir(), 'tsoperator-docs-includes-'));
    await mkdir(join(docs, 'projects', 'demo'), { recursive: true });
    await mkdir(join(docs, '.vitepress'));
    await writeFile(
      join(docs, 'projects', 'demo', 'a.ts'),
      '// #region types\nexport type A = 1;\n// #endregion types\n',
    );
    await writeFile(join(docs, 'part.md'), '<!-- #region intro -->\nHello.\n<!-- #endregion intro -->\n');
    await writeFile(join(docs, '.vitepress', 'ignored.md'), '<<< @/not/read.ts\n');
  });
  after(() => rm(docs, { recursive: true, force: true }));

  it('are fine when each names a file, and a region the file marks', async () => {
    await writeFile(
      join(docs, 'page.md'),
      '# Page\n\n````md\n```sh\n```\n<<< @/shown/not/included.ts\n````\n\n<<< @/projects/demo/a.ts#types{1} [a.ts]\n\n<<< ./projects/demo/a.ts\n\n<!--@include: ./part.md#intro-->\n',
    );
    assert.deepEqual(await includeProblems(docs), []);
  });

  it('name the page and line of a missing file, a folder, and a region no file marks', async () => {
    await writeFile(
      join(docs, 'page.md'),
      '# Page\n\n<<< @/projects/demo/b.ts\n<<< @/projects/demo\n<<< @/projects/demo/a.ts#typo\n<!--@include: ./gone.md-->\n<!--@include: ./part.md#outro-->\n',
    );
    assert.deepEqual(await includeProblems(docs), [
      'page.md:3: @/projects/demo/b.ts is missing',
      'page.md:4: @/projects/demo is no file',
      'page.md:5: @/projects/demo/a.ts#typo names a region the file does not mark',
      'page.md:6: ./gone.md is missing',
      'page.md:7: ./part.md#outro names a region the file does not mark',
    ]);
  });
});
