import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { installedProject, runAnyway } from '../support/generated-project.ts';

const WEBAPP = '--group demo --version v1 --kind WebApp --image nginx:1.27 --port 80'.split(' ');

/**
 * The e2e suite of a project made with `init --namespaced`: config/rbac grants the manager only its
 * own namespace, so the suite must run it watching that namespace, with its sample there.
 */
describe('the e2e suite of a namespaced project', () => {
  let root = '';
  let project = '';

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'tsoperator-e2e-namespaced-'));
    project = await installedProject(root, [WEBAPP], ['--namespaced']);
  });
  after(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('passes: the manager watches its own namespace, where the sample goes through its life', async () => {
    const { exitCode, output } = await runAnyway(project, 'npm', ['run', 'test:e2e']);
    assert.equal(exitCode, 0, output);
    assert.match(output, /^ℹ pass 7$/m);
    assert.match(output, /^ℹ fail 0$/m);
  });
});
