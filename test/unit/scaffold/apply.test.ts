import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { TsoperatorError } from '../../../src/errors.ts';
import { applyWrites } from '../../../src/scaffold/apply.ts';
import type { FileWrite } from '../../../src/scaffold/change.ts';
import { nodeFileSystem, type ApplyFileSystem } from '../../../src/scaffold/file-system.ts';
import { snapshotFolder } from '../../support/folder-snapshot.ts';

const WRITES: readonly FileWrite[] = [
  { path: 'sub/kept.txt', removed: true },
  { path: 'existing.txt', content: 'new existing\n' },
  { path: 'new.txt', content: 'new\n' },
  { path: 'deep/er/file.txt', content: 'deep\n' },
  { path: 'sub/second.txt', content: 'second\n' },
];

async function seededFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tsoperator-apply-'));
  await writeFile(join(dir, 'existing.txt'), 'old existing\n');
  await mkdir(join(dir, 'sub'));
  await writeFile(join(dir, 'sub/kept.txt'), 'kept\n');
  return dir;
}

/** The real file system, except that the `failAt`-th call of `operation` throws. */
function failingFileSystem(operation: 'writeFile' | 'rename' | 'mkdir', failAt: number): ApplyFileSystem {
  let calls = 0;
  const maybeFail = (): void => {
    calls += 1;
    if (calls === failAt) throw new Error(`injected ${operation} failure`);
  };
  const failing: Partial<ApplyFileSystem> = {
    writeFile: async (path, content) => (maybeFail(), nodeFileSystem.writeFile(path, content)),
    rename: async (from, to) => (maybeFail(), nodeFileSystem.rename(from, to)),
    mkdir: async (path) => (maybeFail(), nodeFileSystem.mkdir(path)),
  };
  return { ...nodeFileSystem, [operation]: failing[operation] };
}

test('writes every file, replacing, creating and removing, and leaves no temporary files', async () => {
  const dir = await seededFolder();
  try {
    await applyWrites(dir, WRITES);
    const after = await snapshotFolder(dir);
    assert.equal(after.get('existing.txt'), 'new existing\n');
    assert.equal(after.get('deep/er/file.txt'), 'deep\n');
    assert.equal(after.has('sub/kept.txt'), false);
    assert.deepEqual(
      [...after.keys()].filter((p) => p.includes('tsoperator-')),
      [],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

const FAILURES: readonly { operation: 'writeFile' | 'rename' | 'mkdir'; failAt: number; what: string }[] = [
  { operation: 'mkdir', failAt: 2, what: 'creating the second new folder' },
  { operation: 'writeFile', failAt: 3, what: 'writing the third temporary file' },
  // Renames: 1 moves the removed file aside, 2 backs up existing.txt, 3 puts it in place, 4 and 5 put
  // new files in place.
  { operation: 'rename', failAt: 3, what: 'renaming the first file into place, after its backup' },
  { operation: 'rename', failAt: 5, what: 'renaming the third file into place' },
];

for (const { operation, failAt, what } of FAILURES) {
  test(`a failure ${what} leaves the folder exactly as it was`, async () => {
    const dir = await seededFolder();
    try {
      const before = await snapshotFolder(dir);
      await assert.rejects(applyWrites(dir, WRITES, failingFileSystem(operation, failAt)), (err) => {
        assert.ok(err instanceof TsoperatorError);
        assert.match(
          err.message,
          new RegExp(`^could not write the scaffold, nothing was changed: injected ${operation} failure`),
        );
        return true;
      });
      assert.deepEqual(await snapshotFolder(dir), before);
      assert.equal(await readFile(join(dir, 'existing.txt'), 'utf8'), 'old existing\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}

test('Ctrl-C between two renames leaves the folder exactly as it was, and says so', async () => {
  const dir = await seededFolder();
  let renames = 0;
  const interrupting: ApplyFileSystem = {
    ...nodeFileSystem,
    rename: async (from, to) => {
      renames += 1;
      // The terminal's SIGINT, as it reaches the process while the third rename is done.
      if (renames === 3) process.emit('SIGINT', 'SIGINT');
      await nodeFileSystem.rename(from, to);
    },
  };
  try {
    const before = await snapshotFolder(dir);
    await assert.rejects(
      applyWrites(dir, WRITES, interrupting),
      /^TsoperatorError: could not write the scaffold, nothing was changed: interrupted by SIGINT$/,
    );
    assert.deepEqual(await snapshotFolder(dir), before);
    assert.equal(process.listenerCount('SIGINT'), 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
