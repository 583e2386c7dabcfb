import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runTsoperator } from '../../support/cli.ts';

const CRD = join('config', 'crd', 'bases', 'demo.example.org_webapps.yaml');

// Kubebuilder's CronJob tutorial limits descriptions in its Makefile (crd:maxDescLen=0); here the
// limit lives in PROJECT, set by `edit`, so that every later command writes the same CRDs.
describe('tsoperator edit --max-desc-len', () => {
  let root = '';
  let dir = '';
  const tsoperator = (...args: string[]) => runTsoperator(args, { cwd: dir });
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'tsoperator-edit-'));
    dir = join(root, 'project');
    await mkdir(dir);
    assert.equal((await tsoperator('init', '--domain', 'example.org')).code, 0);
    assert.equal((await tsoperator('create', 'api', '--group', 'demo', '--kind', 'WebApp')).code, 0);
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('with --dry-run, says which manifests would be regenerated and writes nothing', async () => {
    const before = await readFile(join(dir, CRD), 'utf8');

    const result = await tsoperator('edit', '--max-desc-len', '0', '--dry-run');

    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /manifests that would be regenerated:\n(.*\n)*overwrite +config\/crd\/bases\/demo\.example\.org_webapps\.yaml/,
    );
    assert.equal(await readFile(join(dir, CRD), 'utf8'), before);
    assert.doesNotMatch(await readFile(join(dir, 'PROJECT'), 'utf8'), /maxDescLen/);
  });

  it('keeps the limit in PROJECT and regenerates the CRDs without descriptions', async () => {
    assert.match(await readFile(join(dir, CRD), 'utf8'), /description:/);

    const result = await tsoperator('edit', '--max-desc-len', '0');

    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /manifests regenerated:\n(.*\n)*overwrite +config\/crd\/bases\/demo\.example\.org_webapps\.yaml/,
    );
    assert.match(await readFile(join(dir, 'PROJECT'), 'utf8'), /\n {4}crd:\n {6}maxDescLen: 0\n/);
    assert.doesNotMatch(await readFile(join(dir, CRD), 'utf8'), /description:/);
    // manifests, as CI runs it, writes the same: the setting is read from PROJECT.
    assert.equal((await tsoperator('manifests', '--check')).code, 0);
  });

  it('keeps the limit when init --force regenerates the project', async () => {
    const result = await tsoperator('init', '--force', '--domain', 'example.org');

    assert.equal(result.code, 0, result.stderr);
    assert.match(await readFile(join(dir, 'PROJECT'), 'utf8'), /\n {4}crd:\n {6}maxDescLen: 0\n/);
    assert.equal((await tsoperator('manifests', '--check')).code, 0);
  });

  it('removes the limit with -1, and the descriptions come back', async () => {
    const result = await tsoperator('edit', '--max-desc-len', '-1');

    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(await readFile(join(dir, 'PROJECT'), 'utf8'), /maxDescLen/);
    assert.match(await readFile(join(dir, CRD), 'utf8'), /description:/);
  });

  it('says what to give when given nothing to change', async () => {
    const result = await tsoperator('edit');

    assert.equal(result.code, 2);
    assert.match(result.stderr, /edit needs --plugins or --max-desc-len/);
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  });
});
