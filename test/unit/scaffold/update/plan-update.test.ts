import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ProjectConfig } from '../../../../src/project/project-config.ts';
import { parseProjectFile, renderProjectFile } from '../../../../src/project/project-file.ts';
import type { Change } from '../../../../src/scaffold/change.ts';
import { GENERATED_STATE_FILE, contentHash } from '../../../../src/scaffold/generated-state.ts';
import { StagingTree } from '../../../../src/scaffold/staging-tree.ts';
import { planUpdate, type UpdatePlan } from '../../../../src/scaffold/update/plan-update.ts';

const PROJECT: ProjectConfig = {
  version: '3',
  cliVersion: '0.0.9',
  domain: 'example.org',
  layout: ['typescript.tsoperator.io/v1'],
  multigroup: false,
  projectName: 'demo',
  settings: { namespaced: false, license: 'apache2' },
  resources: [],
};

/** Lines a to e: a file whose edits at its two ends merge without touching each other. */
const LINES = 'a\nb\nc\nd\ne\n';

/** `text` as a Windows checkout (git's core.autocrlf) has it. */
const crlf = (text: string): string => text.replaceAll('\n', '\r\n');

/** Each side's files: what the old version generated, the project as its user left it, the new version's. */
const BASE: Record<string, string> = {
  'untouched.txt': LINES,
  'upstream-only.txt': LINES,
  'user-only.txt': LINES,
  'both-apart.txt': LINES,
  'both-same-line.txt': LINES,
  'same-edit.txt': LINES,
  'dropped.txt': LINES,
  'dropped-but-edited.txt': LINES,
  'deleted-by-user.txt': LINES,
  'crlf-upstream-only.txt': LINES,
  'crlf-both-apart.txt': LINES,
  'config/crd/bases/demo.example.org_webapps.yaml': 'kind: CustomResourceDefinition\n',
  'src/runtime/index.ts': '// runtime 0.0.9\n',
  'src/runtime/gone.ts': '// runtime 0.0.9\n',
};
const OURS: Record<string, string> = {
  'untouched.txt': LINES,
  'upstream-only.txt': LINES,
  'user-only.txt': 'a\nb\nc\nd\nE by the user\n',
  'both-apart.txt': 'a\nb\nc\nd\nE by the user\n',
  'both-same-line.txt': 'a\nb\nC by the user\nd\ne\n',
  'same-edit.txt': 'A\nb\nc\nd\ne\n',
  'dropped.txt': LINES,
  'dropped-but-edited.txt': 'a\nb\nc\nd\nE by the user\n',
  'new-on-both-sides.txt': 'mine\n',
  'crlf-upstream-only.txt': crlf(LINES),
  'crlf-both-apart.txt': crlf('a\nb\nc\nd\nE by the user\n'),
  'users-own.ts': 'export const mine = 1;\n',
  'config/crd/bases/demo.example.org_webapps.yaml': 'kind: CustomResourceDefinition # the user\n',
  'src/runtime/index.ts': '// runtime 0.0.9\n',
  'src/runtime/gone.ts': '// runtime 0.0.9\n',
};
const THEIRS: Record<string, string> = {
  'untouched.txt': LINES,
  'upstream-only.txt': 'A by tsoperator\nb\nc\nd\ne\n',
  'user-only.txt': LINES,
  'both-apart.txt': 'A by tsoperator\nb\nc\nd\ne\n',
  'both-same-line.txt': 'a\nb\nC by tsoperator\nd\ne\n',
  'same-edit.txt': 'A\nb\nc\nd\ne\n',
  'deleted-by-user.txt': 'a\nb\nc\nd\nE by tsoperator\n',
  'added.txt': 'new in 0.1.0\n',
  'new-on-both-sides.txt': 'theirs\n',
  'crlf-upstream-only.txt': 'A by tsoperator\nb\nc\nd\ne\n',
  'crlf-both-apart.txt': 'A by tsoperator\nb\nc\nd\ne\n',
  'config/crd/bases/demo.example.org_webapps.yaml': 'kind: CustomResourceDefinition # 0.1.0\n',
  'src/runtime/index.ts': '// runtime 0.1.0\n',
  'src/runtime/added.ts': '// runtime 0.1.0\n',
  [GENERATED_STATE_FILE]: JSON.stringify({ files: { 'added.txt': contentHash('new in 0.1.0\n') } }),
};

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

describe('planUpdate merges what the old version generated, the project and the new version', () => {
  let work = '';
  let project = '';
  let plan: UpdatePlan = { changes: [], conflicts: [] };
  const change = (path: string): Change | undefined => plan.changes.find((c) => c.path === path);

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'tsoperator-plan-update-'));
    project = join(work, 'project');
    await writeTree(join(work, 'base'), BASE);
    await writeTree(join(work, 'theirs'), THEIRS);
    await writeTree(project, {
      ...OURS,
      PROJECT: renderProjectFile(PROJECT),
      [GENERATED_STATE_FILE]: JSON.stringify({ files: { 'users-own.ts': 'recorded by the user' } }),
    });
    plan = await planUpdate(await StagingTree.open(project), PROJECT, {
      baseDir: join(work, 'base'),
      fromVersion: '0.0.9',
      theirsDir: join(work, 'theirs'),
      toVersion: '0.1.0',
      scratchDir: work,
    });
  });
  after(() => rm(work, { recursive: true, force: true }));

  test('a file changed on one side only takes that side', () => {
    assert.deepEqual(change('upstream-only.txt'), {
      action: 'overwrite',
      path: 'upstream-only.txt',
      content: THEIRS['upstream-only.txt'],
    });
    assert.equal(change('user-only.txt'), undefined, "the user's edit stays, nothing to write");
    assert.equal(change('untouched.txt'), undefined);
    assert.equal(change('same-edit.txt'), undefined, 'the same edit on both sides is no change');
  });

  test('edits of both sides to different lines merge cleanly', () => {
    const merged = change('both-apart.txt');
    assert.equal(merged?.action, 'overwrite');
    assert.equal(merged.content, 'A by tsoperator\nb\nc\nd\nE by the user\n');
  });

  test('edits of both sides to the same line are a conflict, with labelled markers', () => {
    assert.deepEqual(plan.conflicts, ['both-same-line.txt', 'new-on-both-sides.txt']);
    assert.equal(
      change('both-same-line.txt')?.content,
      [
        'a',
        'b',
        '<<<<<<< ours (your project)',
        'C by the user',
        '=======',
        'C by tsoperator',
        '>>>>>>> theirs (tsoperator 0.1.0)',
        'd',
        'e',
        '',
      ].join('\n'),
    );
    assert.match(change('both-same-line.txt')?.note ?? '', /CONFLICT: 1 conflict/);
  });

  test('a file with CRLF line endings merges as LF and keeps its CRLF', () => {
    assert.equal(change('crlf-upstream-only.txt')?.content, crlf('A by tsoperator\nb\nc\nd\ne\n'));
    assert.equal(change('crlf-both-apart.txt')?.content, crlf('A by tsoperator\nb\nc\nd\nE by the user\n'));
  });

  test('a file new upstream is added; one the user made too is merged against nothing', () => {
    assert.deepEqual(change('added.txt'), { action: 'create', path: 'added.txt', content: 'new in 0.1.0\n' });
    assert.match(change('new-on-both-sides.txt')?.content ?? '', /<<<<<<< ours[^]*mine[^]*=======[^]*theirs/);
  });

  test('a file no longer generated is deleted when the user left it as generated, kept when not', () => {
    assert.equal(change('dropped.txt')?.action, 'delete');
    assert.equal(change('dropped-but-edited.txt')?.action, 'kept');
    assert.equal(change('dropped-but-edited.txt')?.content, undefined, 'nothing is written to it');
  });

  test('a file the user deleted stays deleted', () => {
    assert.equal(change('deleted-by-user.txt')?.action, 'kept');
    assert.equal(change('deleted-by-user.txt')?.content, undefined);
  });

  test("the user's own files and the manifests are not touched (manifests are regenerated after)", () => {
    assert.equal(change('users-own.ts'), undefined);
    assert.equal(change('config/crd/bases/demo.example.org_webapps.yaml'), undefined);
  });

  test("src/runtime is the new version's outright", () => {
    assert.deepEqual(change('src/runtime/index.ts'), {
      action: 'overwrite',
      path: 'src/runtime/index.ts',
      content: '// runtime 0.1.0\n',
    });
    assert.equal(change('src/runtime/added.ts')?.action, 'create');
    assert.equal(change('src/runtime/gone.ts')?.action, 'delete');
  });

  test("PROJECT records the new version; the records of what was generated are the new version's", async () => {
    const projectFile = change('PROJECT')?.content ?? '';
    assert.equal(parseProjectFile(projectFile).cliVersion, '0.1.0');
    const state = JSON.parse(change(GENERATED_STATE_FILE)?.content ?? '{}') as {
      files: Record<string, string>;
    };
    assert.deepEqual(state.files, {
      'added.txt': contentHash('new in 0.1.0\n'),
      PROJECT: contentHash(projectFile),
      'users-own.ts': 'recorded by the user',
    });
    assert.equal(await readFile(join(project, 'upstream-only.txt'), 'utf8'), LINES, 'a plan writes nothing');
  });
});
