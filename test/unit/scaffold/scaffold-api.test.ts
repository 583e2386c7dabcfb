import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { TsoperatorError } from '../../../src/errors.ts';
import { scaffoldApi } from '../../../src/scaffold/api/scaffold-api.ts';
import { snapshotFolder } from '../../support/folder-snapshot.ts';
import { inEmptyProjectFolder, initProject } from '../../support/scaffold-project.ts';

const WEBAPP = { group: 'demo', version: 'v1', kind: 'WebApp' };

test('create api ends by regenerating the manifests, so the new CRD and its rbac rules exist', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    const { manifests } = await scaffoldApi({ dir, ...WEBAPP }, { dryRun: false });
    assert.ok(
      manifests.some(
        (c) => c.action === 'create' && c.path === 'config/crd/bases/demo.example.org_webapps.yaml',
      ),
    );
    const files = await snapshotFolder(dir);
    assert.match(files.get('config/crd/bases/demo.example.org_webapps.yaml') ?? '', /^ {4}kind: WebApp$/m);
    assert.match(files.get('config/rbac/role.yaml') ?? '', /- webapps\/status/);
  });
});

test('a dry run writes nothing and regenerates nothing', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    const before = await snapshotFolder(dir);
    const { plan, manifests } = await scaffoldApi({ dir, ...WEBAPP }, { dryRun: true });
    assert.ok(plan.changes.some((c) => c.path === 'src/controllers/webapp.controller.ts'));
    assert.deepEqual(manifests, []);
    assert.deepEqual(await snapshotFolder(dir), before);
  });
});

test('when the types do not generate, it says the scaffold was written and what to run after fixing them', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    await scaffoldApi({ dir, ...WEBAPP }, { dryRun: false });
    const types = join(dir, 'src/api/v1/webapp.types.ts');
    await writeFile(types, (await readFile(types, 'utf8')).replace('foo?: string;', 'foo?: symbol;'));
    await assert.rejects(scaffoldApi({ dir, ...WEBAPP, kind: 'Cache' }, { dryRun: false }), (err) => {
      assert.ok(err instanceof TsoperatorError);
      assert.match(err.message, /^the files were scaffolded, but the manifests could not be regenerated:\n/);
      assert.match(err.message, /Fix the problems above, then run `tsoperator manifests`\.$/);
      return true;
    });
    assert.ok((await snapshotFolder(dir)).has('src/api/v1/cache.types.ts'));
  });
});
