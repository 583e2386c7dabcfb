import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { TsoperatorError } from '../../../../src/errors.ts';
import { PROJECT_FILE, parseProjectFile, renderProjectFile } from '../../../../src/project/project-file.ts';
import type { Change } from '../../../../src/scaffold/change.ts';
import { writeUpdate } from '../../../../src/scaffold/update/write-update.ts';
import { createApi, inEmptyProjectFolder, initProject } from '../../../support/scaffold-project.ts';

const CRD = 'config/crd/bases/demo.example.org_webapps.yaml';

/** A project with one kind, and an update of it to 0.1.0 whose merged types are `types`. */
async function projectAndPlan(dir: string, edit: (types: string) => string) {
  await initProject(dir);
  const api = await createApi(dir, { group: 'demo', version: 'v1', kind: 'WebApp', controller: false });
  const typesPath = api.changes.find((c) => c.path.endsWith('.types.ts'))?.path ?? '';
  const before = {
    project: await readFile(join(dir, PROJECT_FILE), 'utf8'),
    types: await readFile(join(dir, typesPath), 'utf8'),
  };
  const project = parseProjectFile(before.project);
  const changes: Change[] = [
    {
      action: 'overwrite',
      path: PROJECT_FILE,
      content: renderProjectFile({ ...project, cliVersion: '0.1.0' }),
    },
    { action: 'overwrite', path: typesPath, content: edit(before.types) },
  ];
  return { project, typesPath, before, plan: { changes, conflicts: [] } };
}

test('merged sources that cannot generate their manifests leave the project as it was, and say where', async () => {
  await inEmptyProjectFolder(async (dir) => {
    const { project, typesPath, before, plan } = await projectAndPlan(dir, (types) =>
      types.replace('  foo?: string;', '  // +kubebuilder:validation:MaxLength=many\n  foo?: string;'),
    );
    await assert.rejects(
      writeUpdate(dir, project, plan),
      (err: unknown) =>
        err instanceof TsoperatorError &&
        err.message.startsWith(
          'nothing was updated: the merged sources would not generate their manifests',
        ) &&
        new RegExp(`${typesPath.replaceAll('.', '\\.')}:\\d+:\\d+ - error TSOP`).test(err.message),
    );
    assert.equal(await readFile(join(dir, PROJECT_FILE), 'utf8'), before.project);
    assert.equal(await readFile(join(dir, typesPath), 'utf8'), before.types);
  });
});

test('the manifests of the merged sources are written with the plan', async () => {
  await inEmptyProjectFolder(async (dir) => {
    const { project, typesPath, plan } = await projectAndPlan(dir, (types) =>
      types.replace('  foo?: string;', '  // +kubebuilder:validation:MaxLength=12\n  foo?: string;'),
    );
    const manifests = await writeUpdate(dir, project, plan);
    assert.ok(manifests.some((change) => change.path === CRD));
    assert.match(await readFile(join(dir, CRD), 'utf8'), /maxLength: 12/);
    assert.match(await readFile(join(dir, typesPath), 'utf8'), /MaxLength=12/);
    assert.equal(parseProjectFile(await readFile(join(dir, PROJECT_FILE), 'utf8')).cliVersion, '0.1.0');
  });
});

test('with conflicts, the plan is written and the manifests are left for after', async () => {
  await inEmptyProjectFolder(async (dir) => {
    const { project, typesPath, plan } = await projectAndPlan(dir, (types) => `<<<<<<< ours\n${types}`);
    assert.deepEqual(await writeUpdate(dir, project, { ...plan, conflicts: [typesPath] }), []);
    assert.match(await readFile(join(dir, typesPath), 'utf8'), /^<<<<<<< ours/);
  });
});
