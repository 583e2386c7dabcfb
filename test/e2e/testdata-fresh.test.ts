import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { execa } from 'execa';
import { repoRoot } from '../support/cli.ts';
import { PROJECT_FOLDERS } from '../../scripts/testdata/sample-projects.ts';

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

// As Kubebuilder's testdata: a template, generator or runtime change shows in the sample and
// tutorial projects, committed beside it, or this fails.
test('testdata/ and docs/projects/ are what `npm run gen:testdata` generates now', async (t) => {
  const out = await mkdtemp(join(tmpdir(), 'tsoperator-testdata-'));
  t.after(() => rm(out, { recursive: true, force: true }));
  await execa(process.execPath, [join(repoRoot, 'scripts', 'gen-testdata.ts'), '--out', out], {
    cwd: repoRoot,
  });

  const stale: string[] = [];
  for (const folder of Object.keys(PROJECT_FOLDERS)) {
    const fresh = await allFiles(join(out, folder));
    const committed = await committedFiles(join(repoRoot, folder));
    stale.push(
      ...[...new Set([...fresh.keys(), ...committed.keys()])]
        .filter((path) => fresh.get(path) !== committed.get(path))
        .sort()
        .map(
          (path) =>
            `${fresh.has(path) ? (committed.has(path) ? 'changed' : 'not committed') : 'no longer generated'}: ${folder}/${path}`,
        ),
    );
  }
  assert.deepEqual(stale, [], 'run `npm run gen:testdata` and commit testdata/ and docs/projects/');
});
