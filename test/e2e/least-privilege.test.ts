import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { execa, type ResultPromise } from 'execa';
import { dump, load } from 'js-yaml';
import { startEnvironment, type Environment } from '../../src/envtest/index.ts';
import { fakeNode } from '../../src/envtest/fake-nodes.ts';
import { defineKind, mergePatch, newClient, type Client } from '../../src/runtime/index.ts';
import { eventually } from '../support/eventually.ts';
import { installedProject } from '../support/generated-project.ts';

const NAMESPACE = 'webapp-operator-system';
const SERVICE_ACCOUNT = 'controller-manager';

interface WebApp {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; uid?: string };
  spec: { image?: string; port?: number; replicas?: number };
  status?: {
    observedGeneration?: number;
    readyReplicas?: number;
    conditions?: { type: string; status: string }[];
  };
}

const WebAppKind = defineKind<WebApp>({
  apiVersion: 'demo.example.org/v1',
  kind: 'WebApp',
  plural: 'webapps',
  namespaced: true,
});

interface PackageJson {
  dependencies: Record<string, string>;
}

interface PackageLock {
  packages: Record<string, { version?: string; integrity?: string; dependencies?: Record<string, string> }>;
}

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

/**
 * The generated WebApp operator runs as a user's cluster would run it: as its own ServiceAccount,
 * holding only what config/rbac grants, on a control plane with kube-controller-manager and a node
 * (kube-scheduler and kwok) for the WebApp's Pods to run on.
 */
describe('the generated WebApp operator, as its ServiceAccount with only config/rbac', () => {
  let root = '';
  let project = '';
  let env: Environment;
  let admin: Client;
  let kubectl: (args: readonly string[], input?: string) => Promise<string>;

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'tsoperator-least-privilege-'));
    project = await installedProject(root, [
      ['--group', 'demo', '--version', 'v1', '--kind', 'WebApp', '--image', 'nginx:1.27', '--port', '80'],
    ]);
    env = await startEnvironment({
      crdPaths: [join(project, 'config', 'crd', 'bases')],
      nodes: 1,
    });
    admin = newClient({ kubeConfig: env.kubeConfig });
    kubectl = async (args, input) =>
      (
        await execa(join(env.binDir, 'kubectl'), ['--kubeconfig', env.kubeconfigPath, ...args], {
          ...(input === undefined ? {} : { input }),
        })
      ).stdout;
    await kubectl(['create', 'namespace', NAMESPACE]);
    await kubectl(['apply', '--server-side', '-f', '-'], await rbacManifests());
  });
  after(async () => {
    await env?.stop();
    await rm(root, { recursive: true, force: true });
  });

  /** config/rbac built by kustomize with the operator's namespace set, as config/default sets it. */
  async function rbacManifests(): Promise<string> {
    const overlay = join(root, 'rbac-overlay');
    await mkdir(overlay, { recursive: true });
    const kustomization = {
      namespace: NAMESPACE,
      resources: [relative(overlay, join(project, 'config', 'rbac'))],
    };
    await writeFile(join(overlay, 'kustomization.yaml'), dump(kustomization));
    return kubectl(['kustomize', overlay]);
  }

  /** A kubeconfig holding a token the TokenRequest API issued for the operator's ServiceAccount. */
  async function serviceAccountKubeconfig(): Promise<string> {
    const core = env.kubeConfig.makeApiClient(CoreV1Api);
    const request = await core.createNamespacedServiceAccountToken({
      name: SERVICE_ACCOUNT,
      namespace: NAMESPACE,
      body: { spec: { audiences: [], expirationSeconds: 3600 } },
    });
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'envtest', server: env.server, caData: env.kubeConfig.getCurrentCluster()?.caData }],
      users: [{ name: SERVICE_ACCOUNT, token: request.status?.token }],
      contexts: [{ name: SERVICE_ACCOUNT, cluster: 'envtest', user: SERVICE_ACCOUNT }],
      currentContext: SERVICE_ACCOUNT,
    });
    const path = join(root, 'service-account.kubeconfig');
    await writeFile(path, kubeConfig.exportConfig(), { mode: 0o600 });
    return path;
  }

  /** `npm start` with the ServiceAccount's kubeconfig; secure metrics on, so its review rights are checked too. */
  /**
   * `npm start` with the ServiceAccount's kubeconfig; secure metrics on, so that its right to review
   * callers is checked too. Wrapped: an async function would wait for the process itself.
   */
  async function startManager(): Promise<{ process: ResultPromise<{ all: true; reject: false }> }> {
    const kubeconfig = await serviceAccountKubeconfig();
    const process = execa(
      globalThis.process.execPath,
      ['src/main.ts', '--metrics-bind-address=127.0.0.1:0', '--health-probe-bind-address=0'],
      { cwd: project, env: { KUBECONFIG: kubeconfig }, all: true, reject: false },
    );
    return { process };
  }

  // `npm audit` is not run here: the registry this project's machines reach answers the audit's
  // POST with 405, and a test that cannot ask would have to skip, which CI must never do.
  it('the lockfile fixes every dependency range of package.json', async () => {
    const pkg = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as PackageJson;
    const lock = JSON.parse(await readFile(join(project, 'package-lock.json'), 'utf8')) as PackageLock;
    assert.deepEqual(lock.packages['']?.dependencies, pkg.dependencies);
    for (const name of Object.keys(pkg.dependencies)) {
      const locked = lock.packages[`node_modules/${name}`];
      assert.ok(locked?.version && locked.integrity, `package-lock.json fixes ${name}`);
    }
  });

  it('npm run build-installer and build-chart write deploy/ with $IMG as the manager image', async () => {
    const path = `${env.binDir}:${process.env['PATH'] ?? ''}`;
    const npmEnv = { ...process.env, PATH: path, IMG: 'registry.example.org/webapp-operator:v0.2.0' };
    await execa('npm', ['run', 'build-installer'], { cwd: project, env: npmEnv });
    await execa('npm', ['run', 'build-chart'], { cwd: project, env: npmEnv });
    const installer = await readFile(join(project, 'deploy', 'install.yaml'), 'utf8');
    assert.match(installer, /image: registry\.example\.org\/webapp-operator:v0\.2\.0$/m);
    const values = load(await readFile(join(project, 'deploy', 'chart', 'values.yaml'), 'utf8')) as {
      manager: { image: unknown };
    };
    assert.deepEqual(values.manager.image, {
      repository: 'registry.example.org/webapp-operator',
      tag: 'v0.2.0',
    });
  });

  it('converges a WebApp: Deployment and Service it owns, ReplicaSets from kube-controller-manager, ready replicas in its status, through a scale-up and the loss of its node', async () => {
    const { process: manager } = await startManager();
    try {
      const key = { namespace: 'default', name: 'shop' };
      await admin.create({
        apiVersion: WebAppKind.apiVersion,
        kind: WebAppKind.kind,
        metadata: key,
        spec: { image: 'nginx:1.27', port: 80, replicas: 2 },
      });
      const app = await admin.get(WebAppKind, key);
      assert.ok(app);
      const apps = env.kubeConfig.makeApiClient(AppsV1Api);
      const core = env.kubeConfig.makeApiClient(CoreV1Api);
      const deployment = await eventually(
        () => apps.readNamespacedDeployment(key).catch(() => undefined),
        'the operator to create the Deployment',
      );
      assert.equal(deployment.metadata?.ownerReferences?.[0]?.uid, app.metadata.uid);
      assert.equal(deployment.spec?.template.spec?.containers[0]?.image, 'nginx:1.27');
      const service = await eventually(
        () => core.readNamespacedService(key).catch(() => undefined),
        'the operator to create the Service',
      );
      assert.equal(service.metadata?.ownerReferences?.[0]?.uid, app.metadata.uid);
      const replicaSet = await eventually(async () => {
        const sets = await apps.listNamespacedReplicaSet({ namespace: 'default' });
        return sets.items.find((s) => s.metadata?.ownerReferences?.[0]?.uid === deployment.metadata?.uid);
      }, 'the Deployment controller to create a ReplicaSet');
      assert.equal(replicaSet.spec?.replicas, 2);
      // kwok runs the Pods on the fake node and reports them Ready; the ReplicaSet controller counts
      // them, so readyReplicas reaches the spec.
      const reconciled = await eventually(async () => {
        const current = await admin.get(WebAppKind, key);
        const available = current?.status?.conditions?.find((c) => c.type === 'Available');
        return current?.status?.readyReplicas === 2 && available?.status === 'True' ? current : undefined;
      }, 'the operator to report 2 ready replicas and Available');
      assert.equal(reconciled.status?.observedGeneration, 1);
      assert.deepEqual(reconciled.status?.conditions?.map((c) => c.type).sort(), [
        'Available',
        'Degraded',
        'Progressing',
      ]);

      // Scaled up, it is Available again once kwok has made the new Pod Ready.
      await admin.patch(reconciled, mergePatch({ spec: { replicas: 3 } }));
      await eventually(
        () => webAppIn(key, 'Available', 3),
        'the WebApp to be Available with 3 ready replicas',
      );

      // Its node deleted, the Pod garbage collector deletes its Pods (after a 40 s quarantine) and
      // their replacements find no node: the WebApp is Progressing, with no ready replica.
      await core.deleteNode({ name: env.nodeNames[0] ?? '' });
      await eventually(() => webAppIn(key, 'Progressing', 0), 'the WebApp to go Progressing', 150_000);

      // A new node takes the Pods: Available again, and no longer Progressing.
      await core.createNode({ body: fakeNode('kwok-node-replacement') });
      const recovered = await eventually(
        () => webAppIn(key, 'Available', 3),
        'the WebApp to be Available on the new node',
      );
      const progressing = recovered.status?.conditions?.find((c) => c.type === 'Progressing');
      assert.equal(progressing?.status, 'False');

      // Deleting the WebApp: its finalizer goes, then the garbage collector deletes what it owned.
      await admin.delete(recovered);
      await eventually(
        async () => ((await admin.get(WebAppKind, key)) === undefined ? true : undefined),
        'the WebApp to go once its finalizer ran',
      );
      await eventually(async () => {
        const [deployments, services] = await Promise.all([
          apps.listNamespacedDeployment({ namespace: 'default' }),
          core.listNamespacedService({ namespace: 'default', fieldSelector: `metadata.name=${key.name}` }),
        ]);
        return deployments.items.length === 0 && services.items.length === 0 ? true : undefined;
      }, 'the garbage collector to delete the Deployment and the Service');
    } finally {
      manager.kill('SIGTERM');
    }
    const result = await manager;
    assert.equal(result.exitCode, 0, String(result.all));
  });

  /** The WebApp once `condition` is True with `ready` ready replicas, else undefined. */
  async function webAppIn(
    key: { namespace: string; name: string },
    condition: 'Available' | 'Progressing',
    ready: number,
  ): Promise<WebApp | undefined> {
    const current = await admin.get(WebAppKind, key);
    const status = current?.status?.conditions?.find((c) => c.type === condition)?.status;
    return status === 'True' && (current?.status?.readyReplicas ?? 0) === ready ? current : undefined;
  }

  it('with the webapps rule taken out of role.yaml, it refuses to start and names the marker', async () => {
    const rolePath = join(project, 'config', 'rbac', 'role.yaml');
    const role = load(await readFile(rolePath, 'utf8')) as { rules: Rule[] };
    const rules = role.rules.filter(
      (r) => !(r.apiGroups.includes('demo.example.org') && r.resources.includes('webapps')),
    );
    assert.equal(rules.length, role.rules.length - 1, 'role.yaml had one rule for webapps');
    await writeFile(rolePath, dump({ ...role, rules }));
    await kubectl(['replace', '-f', '-'], await rbacManifests());

    const { process: manager } = await startManager();
    const stopper = setTimeout(() => manager.kill('SIGTERM'), 60_000);
    const result = await manager;
    clearTimeout(stopper);
    assert.notEqual(result.exitCode, 0, String(result.all));
    assert.match(
      String(result.all),
      /\+kubebuilder:rbac:groups=demo\.example\.org,resources=webapps,verbs=list;watch/,
    );
  });
});
