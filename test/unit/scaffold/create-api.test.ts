import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseProjectFile } from '../../../src/project/project-file.ts';
import { planApi } from '../../../src/scaffold/api/plan-api.ts';
import { regenerateManifests } from '../../../src/scaffold/regenerate-manifests.ts';
import { scaffoldApi } from '../../../src/scaffold/api/scaffold-api.ts';
import { snapshotFolder } from '../../support/folder-snapshot.ts';
import { usageErrorMatching } from '../../support/usage-error.ts';
import {
  createApi,
  emptyProjectFolder,
  inEmptyProjectFolder,
  initProject,
} from '../../support/scaffold-project.ts';

describe('create api in a single-group project', () => {
  let dir = '';
  before(async () => {
    dir = await emptyProjectFolder();
    await initProject(dir);
  });
  after(() => rm(dirname(dir), { recursive: true, force: true }));

  test('writes the types, controller, test, sample and roles, and registers them', async () => {
    const plan = await createApi(dir, { group: 'demo', version: 'v1', kind: 'WebApp' });
    assert.deepEqual(plan.defaultsTaken, []);
    const files = await snapshotFolder(dir);
    for (const file of [
      'src/api/v1/webapp.types.ts',
      'src/api/v1/groupversion-info.ts',
      'src/controllers/webapp.controller.ts',
      'test/controllers/webapp.controller.test.ts',
      'config/samples/demo_v1_webapp.yaml',
      'config/rbac/webapp_admin_role.yaml',
      'config/rbac/webapp_editor_role.yaml',
      'config/rbac/webapp_viewer_role.yaml',
    ]) {
      assert.ok(files.has(file), `${file} is written`);
    }
    assert.match(
      files.get('src/api/v1/webapp.types.ts') ?? '',
      /conditions\?: Condition\[\];[\s\S]*observedGeneration\?: int64;/,
    );
    assert.match(files.get('src/api/v1/groupversion-info.ts') ?? '', /\+groupName=demo\.example\.org/);
    assert.match(
      files.get('src/main.ts') ?? '',
      /import \{ WebAppReconciler \} from '\.\/controllers\/webapp\.controller\.ts';\n\/\/ \+tsoperator:scaffold:imports/,
    );
    assert.match(
      files.get('src/main.ts') ?? '',
      /new WebAppReconciler\(mgr\.client, mgr\.events\)\.setup\(mgr\);\n\/\/ \+tsoperator:scaffold:controllers/,
    );
    assert.match(
      files.get('config/crd/kustomization.yaml') ?? '',
      /- bases\/demo\.example\.org_webapps\.yaml\n# \+tsoperator:scaffold:crd-resources/,
    );
    assert.match(files.get('config/samples/kustomization.yaml') ?? '', /- demo_v1_webapp\.yaml/);
    assert.match(files.get('config/rbac/kustomization.yaml') ?? '', /- webapp_viewer_role\.yaml/);
    const rbacInsert = plan.changes.find((c) => c.path === 'config/rbac/kustomization.yaml');
    assert.deepEqual(rbacInsert?.note, 'at +tsoperator:scaffold:rbac-roles');
    const project = parseProjectFile(files.get('PROJECT') ?? '');
    assert.deepEqual(project.resources, [
      {
        group: 'demo',
        version: 'v1',
        kind: 'WebApp',
        plural: 'webapps',
        domain: 'example.org',
        api: { crdVersion: 'v1', namespaced: true },
        controller: true,
        path: 'src/api/v1/webapp.types.ts',
      },
    ]);
  });

  test('refuses an existing kind without --force, writing nothing', async () => {
    const before = await snapshotFolder(dir);
    await assert.rejects(
      planApi({ dir, group: 'demo', version: 'v1', kind: 'WebApp' }),
      usageErrorMatching(
        /^kind WebApp already exists in group demo v1; re-run with --force to regenerate its files/,
      ),
    );
    assert.deepEqual(await snapshotFolder(dir), before);
  });

  test('--force on an unchanged kind changes nothing, and inserts nothing twice (idempotent)', async () => {
    const plan = await createApi(dir, { group: 'demo', version: 'v1', kind: 'WebApp', force: true });
    assert.deepEqual(
      plan.changes.filter((c) => c.action !== 'unchanged'),
      [],
    );
  });

  test('--force keeps a controller the user wrote, and writes the new one beside it', async () => {
    const controller = join(dir, 'src/controllers/webapp.controller.ts');
    const userCode = `${await readFile(controller, 'utf8')}\n// my reconcile logic\n`;
    await writeFile(controller, userCode);
    await writeFile(join(dir, 'src/api/v1/webapp.types.ts'), 'changed types\n');
    const plan = await createApi(dir, { group: 'demo', version: 'v1', kind: 'WebApp', force: true });
    const kept = plan.changes.filter((c) => c.action === 'kept').map((c) => c.path);
    assert.deepEqual(kept.sort(), ['src/api/v1/webapp.types.ts', 'src/controllers/webapp.controller.ts']);
    assert.equal(await readFile(controller, 'utf8'), userCode);
    assert.match(await readFile(`${controller}.tsoperator-new`, 'utf8'), /export class WebAppReconciler/);
  });

  test("--kind alone defaults to version v1 and the project's group, and says so", async () => {
    const plan = await planApi({ dir, kind: 'Database' });
    assert.equal(plan.resource.group, 'demo');
    assert.equal(plan.resource.version, 'v1');
    assert.deepEqual(plan.defaultsTaken, [
      'version v1 (no --version given)',
      "group demo, the project's group (no --group given)",
    ]);
  });

  test('a second group is refused without --multigroup, saying how to enable it', async () => {
    const before = await snapshotFolder(dir);
    await assert.rejects(
      planApi({ dir, group: 'ops', kind: 'Backup' }),
      usageErrorMatching(
        /^group ops would be a second group in a project that has group demo: re-run with --multigroup/,
      ),
    );
    assert.deepEqual(await snapshotFolder(dir), before);
  });

  test('--multigroup accepts a second group, puts it under its group folder and records it', async () => {
    const plan = await createApi(dir, { group: 'ops', kind: 'Backup', multigroup: true });
    assert.equal(plan.resource.path, 'src/api/ops/v1/backup.types.ts');
    const files = await snapshotFolder(dir);
    assert.ok(files.has('src/controllers/ops/backup.controller.ts'));
    assert.ok(files.has('config/rbac/ops_backup_admin_role.yaml'));
    assert.equal(parseProjectFile(files.get('PROJECT') ?? '').multigroup, true);
    assert.match(
      files.get('src/main.ts') ?? '',
      /import \{ BackupReconciler \} from '\.\/controllers\/ops\/backup\.controller\.ts';/,
    );
  });

  test('with several groups, --kind alone asks for --group', async () => {
    await assert.rejects(
      planApi({ dir, kind: 'Cache' }),
      usageErrorMatching(/^the project has several groups \(demo, ops\): say which one with --group/),
    );
  });
});

describe('create api defaults in a project without resources', () => {
  test('--kind alone takes version v1 and the bare domain, and says so', async () => {
    await inEmptyProjectFolder(async (dir) => {
      await initProject(dir);
      const plan = await createApi(dir, { kind: 'WebApp' });
      assert.deepEqual(plan.defaultsTaken, [
        'version v1 (no --version given)',
        'no group: the kind is in the bare domain example.org (no --group given)',
      ]);
      const files = await snapshotFolder(dir);
      assert.match(
        files.get('src/api/v1/webapp.types.ts') ?? '',
        /import \{ apiVersion \} from '\.\/groupversion-info\.ts';/,
      );
      assert.match(files.get('src/api/v1/groupversion-info.ts') ?? '', /group: 'example\.org'/);
      assert.match(files.get('config/crd/kustomization.yaml') ?? '', /- bases\/example\.org_webapps\.yaml/);
    });
  });
});

describe('create api for a Kubernetes kind', () => {
  test('--no-resource in a Kubernetes group makes a controller without types, and says so', async () => {
    await inEmptyProjectFolder(async (dir) => {
      await initProject(dir);
      const plan = await createApi(dir, {
        group: 'apps',
        version: 'v1',
        kind: 'Deployment',
        resource: false,
      });
      assert.deepEqual(plan.resource, {
        group: 'apps',
        version: 'v1',
        kind: 'Deployment',
        plural: 'deployments',
        domain: '',
        external: true,
        controller: true,
        path: '@kubernetes/client-node',
      });
      assert.deepEqual(plan.readings, [
        "apps/v1 Deployment is Kubernetes' own kind (--no-resource on a Kubernetes group): a controller for it, no types",
      ]);
      const files = await snapshotFolder(dir);
      assert.ok(!files.has('src/api/v1/deployment.types.ts'));
      assert.match(
        files.get('src/controllers/deployment.controller.ts') ?? '',
        /rbac:groups=apps,resources=deployments,/,
      );
    });
  });

  // Kubebuilder's CronJob tutorial: `create api --group batch --version v1 --kind CronJob` in a project
  // of domain tutorial.kubebuilder.io is the user's own kind in batch.tutorial.kubebuilder.io.
  test("a group named like Kubernetes' own is the user's own group, as in Kubebuilder, and says so", async () => {
    await inEmptyProjectFolder(async (dir) => {
      await initProject(dir, { domain: 'tutorial.kubebuilder.io', projectName: 'project' });
      const plan = await createApi(dir, { group: 'batch', version: 'v1', kind: 'CronJob' });
      assert.equal(plan.resource.external, undefined);
      assert.equal(plan.resource.domain, 'tutorial.kubebuilder.io');
      assert.deepEqual(plan.resource.api, { crdVersion: 'v1', namespaced: true });
      assert.deepEqual(plan.readings, [
        "batch is also the name of a Kubernetes group: CronJob is your own kind in batch.tutorial.kubebuilder.io; for a controller of Kubernetes' batch/v1 CronJob, use --no-resource instead",
      ]);
      await regenerateManifests(dir);
      const files = await snapshotFolder(dir);
      assert.ok(files.has('src/api/v1/cronjob.types.ts'));
      assert.match(
        files.get('config/crd/bases/batch.tutorial.kubebuilder.io_cronjobs.yaml') ?? '',
        /name: cronjobs\.batch\.tutorial\.kubebuilder\.io/,
      );
      const project = parseProjectFile(files.get('PROJECT') ?? '');
      assert.equal(project.resources[0]?.external, undefined);
      assert.match(
        files.get('src/controllers/cronjob.controller.ts') ?? '',
        /rbac:groups=batch\.tutorial\.kubebuilder\.io,resources=cronjobs,/,
      );
    });
  });

  test("Kubernetes' own kind beside the user's of the same name is refused, even with --force", async () => {
    await inEmptyProjectFolder(async (dir) => {
      await initProject(dir, { domain: 'tutorial.kubebuilder.io', projectName: 'project' });
      await createApi(dir, { group: 'batch', version: 'v1', kind: 'Job' });
      for (const force of [false, true]) {
        await assert.rejects(
          planApi({ dir, group: 'batch', version: 'v1', kind: 'Job', resource: false, force }),
          usageErrorMatching(
            /^batch\/v1 Job is already your own kind in this project, and a controller of Kubernetes' batch\/v1 Job would take the same files/,
          ),
        );
      }
    });
  });

  test("re-running the old command for Kubernetes' kind made earlier points to --no-resource", async () => {
    await inEmptyProjectFolder(async (dir) => {
      await initProject(dir);
      await createApi(dir, { group: 'apps', version: 'v1', kind: 'Deployment', resource: false });
      await assert.rejects(
        planApi({ dir, group: 'apps', version: 'v1', kind: 'Deployment', force: true }),
        usageErrorMatching(
          /^apps\/v1 Deployment is already a controller of Kubernetes' kind in this project: to regenerate it, re-run with --no-resource/,
        ),
      );
    });
  });

  test("Kubernetes' kind in another version of the user's kind is refused too: the controller files are the kind's", async () => {
    await inEmptyProjectFolder(async (dir) => {
      await initProject(dir, { domain: 'tutorial.kubebuilder.io', projectName: 'project' });
      await createApi(dir, { group: 'batch', version: 'v1', kind: 'CronJob' });
      await assert.rejects(
        planApi({ dir, group: 'batch', version: 'v1beta1', kind: 'CronJob', resource: false }),
        usageErrorMatching(/^batch\/v1 CronJob is already your own kind in this project/),
      );
    });
  });

  test('a second group named like a Kubernetes one points a user of the old reading to --no-resource', async () => {
    await inEmptyProjectFolder(async (dir) => {
      await initProject(dir);
      await createApi(dir, { group: 'demo', version: 'v1', kind: 'WebApp' });
      await assert.rejects(
        planApi({ dir, group: 'apps', version: 'v1', kind: 'Deployment' }),
        usageErrorMatching(
          /would be a second group .*--multigroup.*; for a controller of Kubernetes' own apps kind, re-run with --no-resource/,
        ),
      );
    });
  });
});

describe('create api names', () => {
  let dir = '';
  before(async () => {
    dir = await emptyProjectFolder();
    await initProject(dir);
  });
  after(() => rm(dirname(dir), { recursive: true, force: true }));

  const CASES: readonly {
    args: { kind: string; group?: string; version?: string; plural?: string };
    error: RegExp;
  }[] = [
    { args: { kind: 'webApp' }, error: /^invalid kind "webApp": it must start with an upper-case letter/ },
    { args: { kind: 'Web_App' }, error: /^invalid kind "Web_App"/ },
    { args: { kind: 'WebApp', group: 'Demo' }, error: /^invalid group "Demo"/ },
    { args: { kind: 'WebApp', version: 'V1' }, error: /^invalid version "V1"/ },
    { args: { kind: 'WebApp', plural: 'WebApps' }, error: /^invalid plural "WebApps"/ },
  ];
  for (const { args, error } of CASES) {
    test(`refuses ${JSON.stringify(args)}`, async () => {
      await assert.rejects(planApi({ dir, ...args }), usageErrorMatching(error));
    });
  }

  test('the plural follows English rules, and --plural overrides it', async () => {
    assert.equal((await planApi({ dir, group: 'demo', kind: 'Policy' })).resource.plural, 'policies');
    assert.equal((await planApi({ dir, group: 'demo', kind: 'Ingress' })).resource.plural, 'ingresses');
    assert.equal((await planApi({ dir, group: 'demo', kind: 'Endpoints' })).resource.plural, 'endpoints');
    assert.equal(
      (await planApi({ dir, group: 'demo', kind: 'Moose', plural: 'moose' })).resource.plural,
      'moose',
    );
  });

  test('--no-resource for a kind without types is refused: its controller would not build', async () => {
    await assert.rejects(
      planApi({ dir, group: 'demo', kind: 'Queue', resource: false }),
      usageErrorMatching(
        /^src\/api\/v1\/queue\.types\.ts does not exist, and a controller needs the kind's types: re-run without --no-resource/,
      ),
    );
  });

  test('a custom plural and cluster scope reach the CRD through the resource marker', async () => {
    const { plan } = await scaffoldApi(
      { dir, group: 'demo', kind: 'Moose', plural: 'moose', namespaced: false },
      { dryRun: false },
    );
    assert.equal(plan.resource.plural, 'moose');
    const files = await snapshotFolder(dir);
    assert.match(
      files.get('src/api/v1/moose.types.ts') ?? '',
      /^\/\/ \+kubebuilder:resource:path=moose,scope=Cluster$/m,
    );
    const crd = files.get('config/crd/bases/demo.example.org_moose.yaml') ?? '';
    assert.match(crd, /^ {4}plural: moose$/m);
    assert.match(crd, /^ {2}scope: Cluster$/m);
  });

  test('outside a project it says to run init', async () => {
    await assert.rejects(
      planApi({ dir: dirname(dir), kind: 'WebApp' }),
      /no PROJECT file here: run `tsoperator init` first/,
    );
  });
});

test('a second version of a kind: no second controller by default, and v1 stays the storage version', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    await scaffoldApi({ dir, group: 'demo', version: 'v1', kind: 'WebApp' }, { dryRun: false });
    const { plan, manifests } = await scaffoldApi(
      { dir, group: 'demo', version: 'v2', kind: 'WebApp' },
      { dryRun: false },
    );
    assert.deepEqual(plan.defaultsTaken, [
      'no controller: WebApp v1 has one, which serves every version (pass --controller to write one)',
    ]);
    assert.equal(plan.resource.controller, undefined);
    const files = await snapshotFolder(dir);
    assert.match(files.get('src/api/v1/webapp.types.ts') ?? '', /\+kubebuilder:storageversion/);
    assert.doesNotMatch(files.get('src/api/v2/webapp.types.ts') ?? '', /\+kubebuilder:storageversion/);
    assert.ok(manifests.some((c) => c.path === 'config/crd/bases/demo.example.org_webapps.yaml'));
    assert.match(files.get('config/crd/bases/demo.example.org_webapps.yaml') ?? '', /- name: v2\n/);
  });
});
