import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gitBaseline } from '../../../../src/gen/compat/git-baseline.ts';
import { git } from '../../../support/compat-project.ts';

/*
 * The default git baseline: the merge base with the default branch. A CI checkout is often a
 * shallow clone that does not reach it, and must say so rather than fall back to an older tag.
 */
const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.org }
spec: { scope: Namespaced, versions: [] }
`;

describe('gitBaseline without a ref', () => {
  let dir = '';
  const origin = (): string => join(dir, 'origin');

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tsoperator-git-baseline-'));
    await mkdir(join(origin(), 'config', 'crd', 'bases'), { recursive: true });
    await writeFile(join(origin(), 'config', 'crd', 'bases', 'widgets.yaml'), CRD);
    await git(origin(), 'init', '--quiet', '--initial-branch', 'main');
    await git(origin(), 'add', '.');
    await git(origin(), 'commit', '--quiet', '-m', 'first API');
    await git(origin(), 'tag', 'v0.1.0');
    await git(origin(), 'checkout', '--quiet', '-b', 'feature');
    for (const change of ['one', 'two']) {
      await writeFile(join(origin(), change), change);
      await git(origin(), 'add', change);
      await git(origin(), 'commit', '--quiet', '-m', change);
    }
    await git(origin(), 'checkout', '--quiet', 'main');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("is the merge base with origin's default branch in a full clone", async () => {
    const clone = join(dir, 'full');
    await git(dir, 'clone', '--quiet', '--branch', 'feature', `file://${origin()}`, clone);
    const baseline = await gitBaseline(clone);
    assert.ok('source' in baseline);
    assert.match(baseline.source, /^git merge base with origin\/main \([0-9a-f]{7}\)$/);
    assert.deepEqual(
      baseline.crds.map((c) => c.metadata.name),
      ['widgets.example.org'],
    );
  });

  it("prefers origin's main to a stale local main when there is no origin/HEAD", async () => {
    const clone = join(dir, 'stale-main');
    await git(dir, 'clone', '--quiet', '--branch', 'feature', `file://${origin()}`, clone);
    await git(clone, 'remote', 'set-head', 'origin', '--delete');
    // origin's main has since taken the feature's first commit; the local main was never pulled.
    await git(clone, 'branch', 'main', 'feature~2');
    await git(clone, 'update-ref', 'refs/remotes/origin/main', 'feature~1');
    const base = (await git(clone, 'rev-parse', 'feature~1')).slice(0, 7);
    const baseline = await gitBaseline(clone);
    assert.ok('source' in baseline);
    assert.equal(baseline.source, `git merge base with origin/main (${base})`);
  });

  it('is missing, saying why, in a shallow clone that does not reach the merge base', async () => {
    const clone = join(dir, 'shallow');
    await git(dir, 'clone', '--quiet', '--depth', '1', '--no-single-branch', `file://${origin()}`, clone);
    await git(clone, 'checkout', '--quiet', 'feature');
    await git(clone, 'fetch', '--quiet', '--depth', '1', 'origin', 'tag', 'v0.1.0');
    assert.deepEqual(await gitBaseline(clone), {
      missing:
        'this shallow clone does not reach the merge base of HEAD with origin/main; ' +
        'fetch the history (git fetch --unshallow, or fetch-depth: 0 in CI) or pass --against <ref>',
    });
  });
});
