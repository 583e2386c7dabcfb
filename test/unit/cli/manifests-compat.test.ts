import assert from 'node:assert/strict';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCliCaptured } from '../../support/captured-cli.ts';
import { BREAKING_FINDINGS, breakTheApi, committedProject, git } from '../../support/compat-project.ts';

/*
 * `manifests --check` on a scaffolded project in a git repository, whose committed CRD is the
 * baseline: the types are edited to remove a field, add a required one and tighten a maximum.
 */
const CRD = join('config', 'crd', 'bases', 'demo.example.org_webapps.yaml');
const check = (...args: string[]) => runCliCaptured(['manifests', '--check', ...args]);

describe('tsoperator manifests --check: compatibility', () => {
  let dir = '';
  const start = process.cwd();

  before(async () => {
    dir = await committedProject('main');
  });
  after(async () => {
    process.chdir(start);
    await rm(dirname(dir), { recursive: true, force: true });
  });

  it('passes while the types are what was committed', async () => {
    const result = await check('--against', 'HEAD');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '');
  });

  it('--against HEAD fails with one line per breaking change', async () => {
    await breakTheApi(dir);
    const result = await check('--against', 'HEAD');
    assert.equal(result.code, 1);
    assert.deepEqual(
      result.stdout.split('\n').filter((l) => l.startsWith('webapps.')),
      BREAKING_FINDINGS,
    );
    assert.match(result.stderr, /1 generated manifest is stale/);
    assert.match(result.stderr, /3 incompatible changes against git HEAD \([0-9a-f]{7}\) \(listed above\)/);
  });

  it('without --against, the baseline is the merge base with the default branch', async () => {
    const result = await check();
    assert.equal(result.code, 1);
    assert.match(result.stderr, /3 incompatible changes against git merge base with main \([0-9a-f]{7}\)/);
  });

  it('--format json prints one JSON document on stdout', async () => {
    const result = await check('--against', 'HEAD', '--format', 'json');
    assert.equal(result.code, 1);
    const report = JSON.parse(result.stdout) as {
      stale: { path: string; status: string }[];
      compatibility: {
        baseline: string;
        compared: string[];
        errors: number;
        warnings: number;
        findings: Record<string, string>[];
      };
    };
    assert.deepEqual(report.stale, [{ path: CRD, status: 'update' }]);
    assert.equal(report.compatibility.errors, 3);
    assert.deepEqual(report.compatibility.compared, ['webapps.demo.example.org']);
    assert.match(report.compatibility.baseline, /^git HEAD/);
    assert.deepEqual(report.compatibility.findings[2], {
      crd: 'webapps.demo.example.org',
      version: 'v1',
      path: '^.spec.replicas',
      check: 'maximum',
      severity: 'error',
      message: 'maximum decreased: 10 -> 5',
    });
    assert.match(result.stderr, /^--- config\/crd\/bases\/demo\.example\.org_webapps\.yaml$/m);
  });

  it('warnings print but do not fail, with enforcements from crdify.yaml', async () => {
    assert.equal((await runCliCaptured(['manifests'])).code, 0);
    await writeFile(
      'crdify.yaml',
      'validations:\n  - name: required\n    enforcement: Warn\n  - name: existingFieldRemoval\n    enforcement: Warn\n  - name: maximum\n    enforcement: None\n',
    );
    const result = await check('--against', 'HEAD');
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.stdout.split('\n').filter(Boolean), [
      'webapps.demo.example.org v1 ^.spec - warning required: new required fields: [size]',
      'webapps.demo.example.org v1 ^.spec.foo - warning existingFieldRemoval: removed field',
    ]);
    await rm('crdify.yaml');
  });

  it('--against-file compares with the CRDs of a folder', async () => {
    await mkdir('old');
    await writeFile(join('old', 'webapps.yaml'), await git(dir, 'show', `HEAD:${CRD}`));
    const result = await check('--against-file', 'old');
    assert.equal(result.code, 1);
    assert.deepEqual(result.stdout.split('\n').filter(Boolean), BREAKING_FINDINGS);
    assert.match(result.stderr, /against file old/);
    await rm('old', { recursive: true });
  });

  it('says so when the baseline has none of the generated CRDs', async () => {
    await mkdir('other');
    await writeFile(join('other', 'role.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n');
    const result = await check('--against-file', 'other');
    assert.match(result.stderr, /^compatibility: file other has none of the generated CRDs$/m);
    assert.doesNotMatch(result.stderr, /incompatible/);
    await rm('other', { recursive: true });
  });

  it('--compat-config names another config file, which must exist', async () => {
    const result = await check('--against', 'HEAD', '--compat-config', 'ci/crdify.yaml');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^Error: the compatibility config ci\/crdify\.yaml does not exist/);
  });

  it('--against an unknown ref says so', async () => {
    const result = await check('--against', 'no-such-branch');
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /^Error: --against no-such-branch: no such commit, branch or tag in this repository/,
    );
  });

  for (const [args, message] of [
    [
      ['--check', '--against', 'HEAD', '--against-cluster'],
      /--against and --against-cluster cannot be used together/,
    ],
    [['--against', 'HEAD'], /--against needs --check/],
    [['--check', '--format', 'yaml'], /--format is "yaml"; use text or json/],
  ] as const) {
    it(`usage error: ${args.join(' ')}`, async () => {
      const result = await runCliCaptured(['manifests', ...args]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, message);
    });
  }
});

describe('tsoperator manifests --check: the default baseline', () => {
  let dir = '';
  const start = process.cwd();

  before(async () => {
    dir = await committedProject('feature');
    await breakTheApi(dir);
  });
  after(async () => {
    process.chdir(start);
    await rm(dirname(dir), { recursive: true, force: true });
  });

  it('says so when there is no default branch and no tag, and checks only staleness', async () => {
    const result = await check();
    assert.equal(result.code, 1);
    assert.doesNotMatch(result.stdout, /^webapps\./m);
    assert.match(
      result.stderr,
      /compatibility not checked: no default branch \(origin\/HEAD, main or master\)/,
    );
    assert.doesNotMatch(result.stderr, /incompatible/);
  });

  it('falls back on the last tag', async () => {
    await git(dir, 'tag', 'v0.1.0');
    const result = await check();
    assert.match(result.stderr, /3 incompatible changes against git v0\.1\.0 \([0-9a-f]{7}\)/);
  });

  it("prefers origin's main to a tag, as in a CI checkout of a pull request", async () => {
    await git(dir, 'update-ref', 'refs/remotes/origin/main', 'HEAD');
    const result = await check();
    assert.match(
      result.stderr,
      /3 incompatible changes against git merge base with origin\/main \([0-9a-f]{7}\)/,
    );
  });

  it('in a subfolder of the repository, reads the CRDs committed under the project', async () => {
    const inner = join(dir, 'operator');
    await mkdir(inner);
    for (const entry of ['src', 'config', 'PROJECT', 'package.json', 'tsconfig.json'])
      await cp(entry, join(inner, entry), { recursive: true });
    await git(dir, 'add', 'operator');
    await git(dir, 'commit', '--quiet', '-m', 'moved');
    process.chdir(inner);
    const result = await check('--against', 'HEAD');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /incompatible changes/);
    process.chdir(dir);
  });
});

describe('tsoperator manifests --check: a deleted API', () => {
  let dir = '';
  const start = process.cwd();

  before(async () => {
    dir = await committedProject('main');
    const deleted = await runCliCaptured(
      'delete api --group demo --version v1 --kind WebApp --force'.split(' '),
    );
    assert.equal(deleted.code, 0, deleted.stderr);
  });
  after(async () => {
    process.chdir(start);
    await rm(dirname(dir), { recursive: true, force: true });
  });

  it('reports crdRemoval for the CRD the baseline has and the project no longer generates', async () => {
    const result = await check('--against', 'HEAD');
    assert.equal(result.code, 1);
    assert.deepEqual(result.stdout.split('\n').filter(Boolean), [
      'webapps.demo.example.org - error crdRemoval: the CRD is no longer generated: objects stored in ' +
        'clusters and the clients of it break; if the API was deleted on purpose, set crdRemoval to ' +
        'Warn or None in crdify.yaml for this change',
    ]);
    assert.match(result.stderr, /1 incompatible change against git HEAD/);
    assert.doesNotMatch(result.stderr, /stale/);
  });

  it('passes once crdify.yaml accepts the removal', async () => {
    await writeFile('crdify.yaml', 'validations:\n  - name: crdRemoval\n    enforcement: None\n');
    const result = await check('--against', 'HEAD');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '');
    await rm('crdify.yaml');
  });
});
