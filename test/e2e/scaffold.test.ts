import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { execa } from 'execa';
import { startEnvironment } from '../../src/envtest/index.ts';
import { DeploymentKind, ServiceKind, defineKind, newClient } from '../../src/runtime/index.ts';
import { installTsoperator, packCheckout, runIn, tsoperatorIn } from '../support/generated-project.ts';
import { eventually } from '../support/eventually.ts';
import { findDescendant } from '../support/process-tree.ts';

/**
 * The flow a user follows, end to end: init, create api, npm install (with tsoperator packed from
 * this checkout), then the generated project's own build, lint and tests, its controller test on a
 * real control plane.
 */
describe('a scaffolded project builds, lints and tests green', () => {
  let root = '';
  let project = '';
  let tarball = '';

  /** Runs a command in the generated project, failing with its output when it fails. */
  const run = (file: string, args: readonly string[]): Promise<string> => runIn(project, file, args);

  const tsoperator = (args: readonly string[]): Promise<string> => tsoperatorIn(project, args);

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'tsoperator-e2e-'));
    project = join(root, 'webapp-operator');
    await mkdir(project);
    // Packs the built CLI (`npm run build` first, as for every test of the bin): building here would
    // rewrite dist/ under the CLI tests running beside this one.
    tarball = await packCheckout(root);
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('init, then create api --group demo --version v1 --kind WebApp --image nginx:1.27 --port 80', async () => {
    await tsoperator(['init', '--domain', 'example.org', '--project-name', 'webapp-operator']);
    const output = await tsoperator([
      'create',
      'api',
      '--group',
      'demo',
      '--version',
      'v1',
      '--kind',
      'WebApp',
      '--image',
      'nginx:1.27',
      '--port',
      '80',
    ]);
    assert.match(output, /create {4}src\/controllers\/webapp\.controller\.ts/);
    assert.match(output, /create {4}src\/controllers\/webapp\.resources\.ts/);
    assert.ok(
      existsSync(join(project, 'config', 'crd', 'bases', 'demo.example.org_webapps.yaml')),
      'create api generated the CRD',
    );
  });

  it('create api --kind Cache: a kind with the generic reconciler', async () => {
    const output = await tsoperator(['create', 'api', '--kind', 'Cache']);
    assert.match(output, /create {4}src\/controllers\/cache\.controller\.ts/);
  });

  it('create api for a Kubernetes kind: a controller without types', async () => {
    const output = await tsoperator([
      'create',
      'api',
      '--group',
      'apps',
      '--version',
      'v1',
      '--kind',
      'Deployment',
      '--no-resource',
    ]);
    assert.match(output, /note: apps\/v1 Deployment is Kubernetes' own kind/);
    assert.match(output, /create {4}src\/controllers\/deployment\.controller\.ts/);
    assert.ok(!existsSync(join(project, 'src', 'api', 'v1', 'deployment.types.ts')));
  });

  it('npm install, with tsoperator from this checkout', async () => {
    await installTsoperator(project, tarball);
  });

  it('npm run build: one bundled file, what the image runs, which imports nothing of client-node', async () => {
    await run('npm', ['run', 'build']);
    assert.deepEqual((await readdir(join(project, 'dist'))).sort(), ['main.js', 'main.js.map']);
    const bundle = await readFile(join(project, 'dist', 'main.js'), 'utf8');
    assert.doesNotMatch(bundle, /from ["']@kubernetes\/client-node/);
    assert.doesNotMatch(bundle, /from ["']\.\.?\//, 'every module of src/ is in the bundle');
  });

  it('npm run lint', async () => {
    await run('npm', ['run', 'lint']);
  });

  it('npm test: the controller test passes on the envtest control plane', async () => {
    const output = await run('npm', ['test']);
    assert.match(output, /✔ creates a Deployment and a Service that the WebApp controls/);
    assert.match(output, /✔ puts back a Deployment edited by hand and a Service deleted by hand/);
    assert.match(output, /✔ runs the cleanup once deleted, and lets the WebApp go/);
    assert.match(output, /✔ CacheReconciler/);
    assert.match(output, /✔ DeploymentReconciler/);
    assert.match(output, /ℹ fail 0/);
  });

  it('npm start runs the manager on the current kubeconfig: a sample applied with kubectl is reconciled, repaired and finalized', async () => {
    await using env = await startEnvironment({ crdPaths: [join(project, 'config', 'crd', 'bases')] });
    // As a user with kind: KUBECONFIG names the cluster, the project's npm start does the rest.
    const kubeconfig = { KUBECONFIG: env.admin.kubeconfigPath };
    const manager = execa(
      'npm',
      ['start', '--', '--metrics-bind-address=0', '--health-probe-bind-address=0'],
      {
        cwd: project,
        env: { ...kubeconfig, PATH: `${dirname(process.execPath)}${delimiter}${process.env['PATH'] ?? ''}` },
        all: true,
        reject: false,
      },
    );
    try {
      await execa('kubectl', ['apply', '-f', 'config/samples/demo_v1_webapp.yaml'], {
        cwd: project,
        env: kubeconfig,
      });
      const client = newClient({ kubeConfig: env.kubeConfig });
      const key = { namespace: 'default', name: 'webapp-sample' };

      const reconciled = await eventually(async () => {
        const app = (await client.get(webAppKind, key)) as WebAppStatusView | undefined;
        return app?.status?.observedGeneration === 1 ? app : undefined;
      }, 'the manager to record observedGeneration 1 on the WebApp');

      assert.equal(reconciled.status?.readyReplicas, 0);
      const available = reconciled.status?.conditions?.find((c) => c.type === 'Available');
      assert.equal(available?.status, 'False', 'no kubelet runs the Pods');
      const deployment = await client.get(DeploymentKind, key);
      assert.equal(deployment?.spec?.template.spec?.containers[0]?.image, 'nginx:1.27');
      const service = await client.get(ServiceKind, key);
      assert.ok(service, 'the manager made the Service');
      assert.equal(service.spec?.ports?.[0]?.port, 80);

      // Drift: the Service deleted by hand is put back, through the manager's watch on what it owns.
      await client.delete(service);
      await eventually(async () => {
        const recreated = await client.get(ServiceKind, key);
        return recreated && recreated.metadata?.uid !== service.metadata?.uid ? recreated : undefined;
      }, 'the manager to recreate the Service');

      // Deleted with kubectl: the finalizer's cleanup runs, and the WebApp goes.
      await execa('kubectl', ['delete', '-f', 'config/samples/demo_v1_webapp.yaml', '--timeout=60s'], {
        cwd: project,
        env: kubeconfig,
      });
      assert.equal(await client.get(webAppKind, key), undefined);
    } finally {
      // SIGTERM to the manager itself, as the kubelet sends it; npm start then exits with its code.
      // (Signalling npm alone would leave its child running: npm does not wait for it.)
      const pid = await eventually(
        () => findDescendant(manager.pid ?? 0, 'src/main.ts'),
        'npm start to run the manager',
      );
      process.kill(pid, 'SIGTERM');
    }
    const result = await manager;
    assert.equal(result.exitCode, 0, result.all);
    // npm start logs console lines (--zap-devel); the reconciler's carry the reconcile's scope.
    const created = result.all
      .split('\n')
      .find((line) => /\tINFO\tcreated Deployment webapp-sample to match the spec\t/.test(line));
    assert.ok(created, result.all);
    const fields = JSON.parse(created.split('\t')[3] ?? '{}') as Record<string, unknown>;
    assert.equal(fields['controller'], 'webapp');
    assert.equal(fields['namespace'], 'default');
    assert.equal(fields['name'], 'webapp-sample');
    assert.equal(typeof fields['reconcileID'], 'string');
  });
});

/** What the test reads of a WebApp: its status. */
interface WebAppStatusView {
  status?: {
    observedGeneration?: number;
    readyReplicas?: number;
    conditions?: { type: string; status: string }[];
  };
}

const webAppKind = defineKind({
  apiVersion: 'demo.example.org/v1',
  kind: 'WebApp',
  plural: 'webapps',
  namespaced: true,
});
