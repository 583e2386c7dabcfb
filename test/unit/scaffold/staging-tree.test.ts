import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { applyWrites } from '../../../src/scaffold/apply.ts';
import { fileWrites, type Change } from '../../../src/scaffold/change.ts';
import { GENERATED_STATE_FILE } from '../../../src/scaffold/generated-state.ts';
import { StagingTree } from '../../../src/scaffold/staging-tree.ts';

async function withFolder(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'tsoperator-tree-'));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Plans `generate(path, content)` for each file and applies the plan, as a command does. */
async function scaffold(dir: string, files: Record<string, string>, force = false): Promise<Change[]> {
  const tree = await StagingTree.open(dir, { force });
  for (const [path, content] of Object.entries(files)) await tree.generate(path, content);
  const changes = tree.changes();
  await applyWrites(dir, fileWrites(changes));
  return changes;
}

function actions(changes: readonly Change[]): string[] {
  return changes.map((c) => `${c.action} ${c.path}`);
}

test('creates missing files and records what it generated', async () => {
  await withFolder(async (dir) => {
    const changes = await scaffold(dir, { 'a.txt': 'A\n', 'sub/b.txt': 'B\n' });
    assert.deepEqual(actions(changes), [
      'create a.txt',
      'create sub/b.txt',
      `create ${GENERATED_STATE_FILE}`,
    ]);
    assert.equal(await readFile(join(dir, 'sub/b.txt'), 'utf8'), 'B\n');
  });
});

test('a second run with the same content changes nothing', async () => {
  await withFolder(async (dir) => {
    await scaffold(dir, { 'a.txt': 'A\n' });
    assert.deepEqual(actions(await scaffold(dir, { 'a.txt': 'A\n' })), ['unchanged a.txt']);
    assert.deepEqual(actions(await scaffold(dir, { 'a.txt': 'A\n' }, true)), ['unchanged a.txt']);
  });
});

test('without --force, a file that differs is a conflict and nothing is planned for it', async () => {
  await withFolder(async (dir) => {
    await writeFile(join(dir, 'a.txt'), 'mine\n');
    const tree = await StagingTree.open(dir);
    await tree.generate('a.txt', 'A\n');
    assert.deepEqual(tree.conflicts(), ['a.txt']);
    assert.deepEqual(tree.changes(), []);
  });
});

test('--force regenerates a file still as generated', async () => {
  await withFolder(async (dir) => {
    await scaffold(dir, { 'a.txt': 'A1\n' });
    const changes = await scaffold(dir, { 'a.txt': 'A2\n' }, true);
    assert.deepEqual(actions(changes), ['overwrite a.txt', `overwrite ${GENERATED_STATE_FILE}`]);
    assert.equal(await readFile(join(dir, 'a.txt'), 'utf8'), 'A2\n');
  });
});

test('--force keeps a file the user changed and writes the new version beside it', async () => {
  await withFolder(async (dir) => {
    await scaffold(dir, { 'a.txt': 'A1\n' });
    await writeFile(join(dir, 'a.txt'), 'A1 and my work\n');
    const changes = await scaffold(dir, { 'a.txt': 'A2\n' }, true);
    assert.deepEqual(actions(changes), ['kept a.txt']);
    assert.match(
      changes[0]?.note ?? '',
      /changed since tsoperator generated it: kept; the new version is in a\.txt\.tsoperator-new/,
    );
    assert.equal(await readFile(join(dir, 'a.txt'), 'utf8'), 'A1 and my work\n');
    assert.equal(await readFile(join(dir, 'a.txt.tsoperator-new'), 'utf8'), 'A2\n');
  });
});

test('--force keeps a file tsoperator never generated (no recorded hash)', async () => {
  await withFolder(async (dir) => {
    await writeFile(join(dir, 'a.txt'), 'mine\n');
    assert.deepEqual(actions(await scaffold(dir, { 'a.txt': 'A\n' }, true)), ['kept a.txt']);
    assert.equal(await readFile(join(dir, 'a.txt'), 'utf8'), 'mine\n');
  });
});

test('an insertion into a file still as generated keeps it regenerable; into a changed one does not', async () => {
  await withFolder(async (dir) => {
    await scaffold(dir, {
      'main.ts': '// +tsoperator:scaffold:x\n',
      'other.ts': '// +tsoperator:scaffold:x\n',
    });
    await writeFile(join(dir, 'other.ts'), 'mine();\n// +tsoperator:scaffold:x\n');
    const tree = await StagingTree.open(dir);
    await tree.insert('main.ts', 'x', 'a();');
    await tree.insert('other.ts', 'x', 'a();');
    await applyWrites(dir, fileWrites(tree.changes()));
    const changes = await scaffold(dir, { 'main.ts': 'regenerated\n', 'other.ts': 'regenerated\n' }, true);
    assert.deepEqual(actions(changes).slice(0, 2), ['overwrite main.ts', 'kept other.ts']);
  });
});

test('an insertion whose marker was removed is left to the user, with the snippet', async () => {
  await withFolder(async (dir) => {
    await mkdir(join(dir, 'src'));
    await writeFile(join(dir, 'src/main.ts'), 'start();\n');
    const tree = await StagingTree.open(dir);
    await tree.insert('src/main.ts', 'controllers', 'register();');
    assert.deepEqual(tree.changes(), [
      {
        action: 'manual',
        path: 'src/main.ts',
        note: 'src/main.ts has no +tsoperator:scaffold:controllers marker; add by hand:\nregister();',
      },
    ]);
  });
});

test('a damaged state file is an error that says how to recover', async () => {
  await withFolder(async (dir) => {
    await mkdir(join(dir, '.tsoperator'));
    await writeFile(join(dir, GENERATED_STATE_FILE), '{ not json');
    await assert.rejects(
      StagingTree.open(dir),
      /^TsoperatorError: \.tsoperator\/generated\.json is not valid JSON .*: restore it from version control, or delete it/,
    );
  });
});

test('generate with force for one file regenerates it as --force would, without --force for the rest', async () => {
  await withFolder(async (dir) => {
    await scaffold(dir, { 'test.ts': 'v1\n', 'mine.ts': 'v1\n' });
    await writeFile(join(dir, 'mine.ts'), 'edited\n');
    const tree = await StagingTree.open(dir);
    await tree.generate('test.ts', 'v2\n', true);
    await tree.generate('mine.ts', 'v2\n', true);
    assert.deepEqual(tree.conflicts(), []);
    assert.deepEqual(actions(tree.changes()), [
      'overwrite test.ts',
      'kept mine.ts',
      `overwrite ${GENERATED_STATE_FILE}`,
    ]);
  });
});

test('requireManual lists an edit for the user after the writes', async () => {
  await withFolder(async (dir) => {
    const tree = await StagingTree.open(dir);
    await tree.generate('a.ts', 'A\n');
    tree.requireManual('setup.ts', 'add v3 to the spokes');
    const changes = tree.changes();
    assert.deepEqual(actions(changes).slice(0, 2), ['create a.ts', 'manual setup.ts']);
    assert.equal(changes[1]?.note, 'add v3 to the spokes');
  });
});
