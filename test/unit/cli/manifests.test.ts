import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCliCaptured } from '../../support/captured-cli.ts';

/*
 * `tsoperator manifests` in a copy of a fixture project: writes, then --check passes; a stale or
 * missing file makes --check fail with a diff and write nothing; --dry-run writes nothing.
 */
const FIXTURE = new URL('../../../fixtures/valid/multiversion/src', import.meta.url).pathname;
const CRD = join('config', 'crd', 'bases', 'cache.example.org_caches.yaml');

let project: string;
let output = '';
let errors = '';

async function run(...args: string[]): Promise<number> {
  const result = await runCliCaptured(['manifests', ...args]);
  output = result.stdout;
  errors = result.stderr;
  return result.code;
}

describe('tsoperator manifests', () => {
  before(() => {
    project = mkdtempSync(join(tmpdir(), 'tsoperator-manifests-'));
    cpSync(FIXTURE, join(project, 'src'), { recursive: true });
    process.chdir(project);
  });
  after(() => rmSync(project, { recursive: true, force: true }));

  it('--check fails on a missing file, names it, and writes nothing', async () => {
    assert.equal(await run('--check'), 1);
    assert.match(
      errors,
      /1 generated manifest is stale:\n {2}config\/crd\/bases\/cache\.example\.org_caches\.yaml \(missing\)/,
    );
    assert.match(output, /^\+\+\+ config\/crd\/bases\/cache\.example\.org_caches\.yaml$/m);
    assert.equal(existsSync(CRD), false);
  });

  it('--dry-run prints what would change and writes nothing', async () => {
    assert.equal(await run('--dry-run'), 0);
    assert.match(output, /^create {4}config\/crd\/bases\/cache\.example\.org_caches\.yaml$/m);
    assert.equal(existsSync(CRD), false);
  });

  it('writes the CRDs, then --check passes', async () => {
    assert.equal(await run(), 0);
    assert.equal(output, `created ${CRD}\n`);
    assert.match(readFileSync(CRD, 'utf8'), /^---\napiVersion: apiextensions\.k8s\.io\/v1\n/);
    assert.equal(await run('--check'), 0);
    assert.equal(output, '');
  });

  it('--check shows the diff of a stale file', async () => {
    writeFileSync(CRD, readFileSync(CRD, 'utf8').replace('shortNames:\n    - ch', 'shortNames:\n    - c'));
    assert.equal(await run('--check'), 1);
    assert.match(output, /^- {4}- c\n\+ {4}- ch$/m);
    assert.match(errors, /\(out of date\)\nRun `tsoperator manifests` and commit the result\./);
  });

  it('--output writes under another folder', async () => {
    assert.equal(await run('--output', 'out'), 0);
    assert.equal(existsSync(join('out', CRD)), true);
  });

  it('reports marker errors with file:line:col and exits 1', async () => {
    const types = join('src', 'api', 'v2', 'cache_types.ts');
    writeFileSync(
      types,
      readFileSync(types, 'utf8').replace('// +listMapKey=host', '// +listMapKey=host,extra'),
    );
    assert.equal(await run(), 1);
    assert.match(errors, /^Error: src\/api\/v2\/cache_types\.ts:\d+:\d+ - error TSOP1006: /);
  });
});
