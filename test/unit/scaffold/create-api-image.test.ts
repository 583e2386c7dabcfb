import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load } from 'js-yaml';
import { UsageError } from '../../../src/errors.ts';
import { parseProjectFile } from '../../../src/project/project-file.ts';
import { scaffoldApi } from '../../../src/scaffold/api/scaffold-api.ts';
import { snapshotFolder } from '../../support/folder-snapshot.ts';
import { inEmptyProjectFolder, initProject } from '../../support/scaffold-project.ts';

const WEBAPP = { group: 'demo', version: 'v1', kind: 'WebApp' };

interface CrdSpecSchema {
  properties: Record<string, { default?: unknown; minimum?: number }>;
}

function specSchema(crdText: string): CrdSpecSchema {
  const crd = load(crdText) as {
    spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: CrdSpecSchema } } } }[] };
  };
  const version = crd.spec.versions[0];
  assert.ok(version);
  return version.schema.openAPIV3Schema.properties.spec;
}

test('create api --image records the options in PROJECT and defaults the spec from them', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    await scaffoldApi({ dir, ...WEBAPP, image: 'nginx:1.27', port: 80 }, { dryRun: false });

    const files = await snapshotFolder(dir);
    const project = parseProjectFile(files.get('PROJECT') ?? '');
    assert.deepEqual(project.deployImage, [
      { ...WEBAPP, domain: 'example.org', options: { image: 'nginx:1.27', containerPort: 80 } },
    ]);
    const spec = specSchema(files.get('config/crd/bases/demo.example.org_webapps.yaml') ?? '');
    assert.equal(spec.properties['image']?.default, 'nginx:1.27');
    assert.equal(spec.properties['port']?.default, 80);
    assert.equal(spec.properties['replicas']?.default, 1);
    assert.equal(spec.properties['replicas']?.minimum, 0);
    assert.ok(files.has('src/controllers/webapp.resources.ts'));
    // Named *.e2e.ts so that `npm test`'s *.test.ts leaves it to `npm run test:e2e`.
    assert.match(files.get('test/e2e/webapp.e2e.ts') ?? '', /config\/samples\/demo_v1_webapp\.yaml/);
    assert.ok(files.has('test/e2e/support/e2e-cluster.ts'));
    assert.match(files.get('config/samples/demo_v1_webapp.yaml') ?? '', /image: nginx:1\.27/);
  });
});

test('the controller of an --image kind may touch exactly its kind, Deployments, Services and events', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    await scaffoldApi({ dir, ...WEBAPP, image: 'nginx:1.27' }, { dryRun: false });

    const role = load((await snapshotFolder(dir)).get('config/rbac/role.yaml') ?? '') as {
      rules: { apiGroups: string[]; resources: string[]; verbs: string[] }[];
    };
    const granted = role.rules.flatMap((r) =>
      r.apiGroups.flatMap((g) => r.resources.map((res) => `${g}/${res}: ${r.verbs.join(',')}`)),
    );
    const all = 'create,delete,get,list,patch,update,watch';
    assert.deepEqual(
      granted.sort(),
      [
        `/services: ${all}`,
        `apps/deployments: ${all}`,
        `demo.example.org/webapps/finalizers: update`,
        `demo.example.org/webapps/status: get,patch,update`,
        `demo.example.org/webapps: ${all}`,
        'events.k8s.io/events: create,patch',
      ].sort(),
    );
  });
});

test('create api --force without --image regenerates the controller with the recorded image', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    await scaffoldApi({ dir, ...WEBAPP, image: 'nginx:1.27' }, { dryRun: false });

    const { plan } = await scaffoldApi({ dir, ...WEBAPP, force: true }, { dryRun: true });

    assert.ok(plan.changes.some((c) => c.path === 'src/controllers/webapp.resources.ts'));
    assert.ok(!plan.changes.some((c) => c.path === 'PROJECT' && c.action !== 'unchanged'));
  });
});

test('--image takes the port 8080 when none is given, and says so', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    const { plan } = await scaffoldApi({ dir, ...WEBAPP, image: 'nginx:1.27' }, { dryRun: true });
    assert.ok(plan.defaultsTaken.includes('port 8080 (no --port given)'));
  });
});

test('--port without --image, and --image for a cluster-scoped kind, are usage errors', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    await assert.rejects(scaffoldApi({ dir, ...WEBAPP, port: 80 }, { dryRun: true }), UsageError);
    await assert.rejects(
      scaffoldApi({ dir, ...WEBAPP, image: 'nginx:1.27', namespaced: false }, { dryRun: true }),
      /--image makes a Deployment and a Service in the kind's namespace/,
    );
  });
});
