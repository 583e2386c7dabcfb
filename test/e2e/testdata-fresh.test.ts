import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { execa } from 'execa';
import { repoRoot } from '../support/cli.ts';
import { TESTDATA_DIR } from '../support/sample-project.ts';

/** Every file under `dir` git would commit (tracked, or new and not ignored): path → content. */
async function committedFiles(dir: string): Promise<Map<string, string>> {
  const { stdout } = await execa(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', dir],
    {
      cwd: repoRoot,
    },
  );
  const files = new Map<string, string>();
  for (const path of stdout.split('\0').filter((p) => p !== '')) {
    const content = await readFile(join(repoRoot, path), 'utf8').catch(() => undefined);
    // A file deleted from the working tree but still in the index is gone.
    if (content !== undefined) files.set(relative(dir, join(repoRoot, path)), content);
  }
  return files;
}

async function allFiles(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), await readFile(path, 'utf8'));
  }
  return files;
}

// As Kubebuilder's testdata: a template, generator or runtime change shows in the sample
// projects, committed beside it, or this fails.
test('testdata/ is what `npm run gen:testdata` generates now', async (t) => {
  const out = await mkdtemp(join(tmpdir(), 'tsoperator-testdata-'));
  t.after(() => rm(out, { recursive: true, force: true }));
  await execa(process.execPath, [join(repoRoot, 'scripts', 'gen-testdata.ts'), '--out', out], {
    cwd: repoRoot,
  });

  const fresh = await allFiles(out);
  const committed = await committedFiles(TESTDATA_DIR);
  const stale = [...new Set([...fresh.keys(), ...committed.keys()])]
    .filter((path) => fresh.get(path) !== committed.get(path))
    .sort()
    .map(
      (path) =>
        `${fresh.has(path) ? (committed.has(path) ? 'changed' : 'not committed') : 'no longer generated'}: ${path}`,
    );
  assert.deepEqual(stale, [], 'run `npm run gen:testdata` and commit testdata/');
});
