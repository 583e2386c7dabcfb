import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { linkCheckoutPackages } from '../../support/checkout-packages.ts';
import { emptyProjectFolder, initProject } from '../../support/scaffold-project.ts';

type Kubectl = (args: readonly string[], input?: string) => Promise<string>;

interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}

/** What the tests use of a generated project's test/e2e/support. */
interface E2eSupport {
  kubectlWith(binary: string, kubeconfig: string | undefined): Kubectl;
  setUpMetricsCallers(kubectl: Kubectl, clusterRole: string, reader: string): Promise<ObjectRef[]>;
  applyOwned(kubectl: Kubectl, args: readonly string[], owned: ObjectRef[]): Promise<void>;
  deleteObjects(kubectl: Kubectl, refs: readonly ObjectRef[], timeout?: string): Promise<void>;
  deleteFinalized(kubectl: Kubectl, refs: readonly ObjectRef[], timeout?: string): Promise<void>;
  foundInPlace(kubectl: Kubectl, args: readonly string[]): Promise<ObjectRef[]>;
  readonly CREATED_BY_SUITE: string;
}

function configMap(name: string, finalizers?: string[]): object {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', finalizers } };
}

/**
 * How a generated e2e suite's current-cluster teardown treats a real API server's objects: it deletes
 * what it created and nothing it found, never waits unbounded on a finalizer, and its set-up survives
 * what an interrupted run left behind.
 */
describe("a generated e2e suite's teardown, on a real API server", () => {
  let dir = '';
  let env: Environment;
  let support: E2eSupport;
  let kubectl: Kubectl;

  const exists = async (name: string): Promise<boolean> =>
    (await kubectl(['get', 'configmap', name, '-n', 'default', '--ignore-not-found', '-o', 'name'])) !== '';

  before(async () => {
    dir = await emptyProjectFolder();
    await initProject(dir);
    await linkCheckoutPackages(dir);
    const load = async (file: string): Promise<object> =>
      (await import(pathToFileURL(join(dir, 'test/e2e/support', file)).href)) as object;
    support = Object.assign({}, await load('e2e-cluster.ts'), await load('owned-objects.ts')) as E2eSupport;
    env = await startEnvironment();
    kubectl = support.kubectlWith(join(env.binDir, 'kubectl'), env.kubeconfigPath);
  });
  after(async () => {
    await env?.stop();
    await rm(dirname(dir), { recursive: true, force: true });
  });

  it('deletes only the objects its apply created: one found in place stays', async () => {
    await kubectl(['apply', '-f', '-'], JSON.stringify(configMap('found')));
    const file = join(dir, 'objects.json');
    await writeFile(
      file,
      JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [configMap('found'), configMap('made')] }),
    );
    const owned: ObjectRef[] = [];
    await support.applyOwned(kubectl, ['-n', 'default', '-f', file], owned);
    assert.deepEqual(
      owned.map((ref) => ref.name),
      ['made'],
    );
    await support.deleteObjects(kubectl, owned);
    assert.equal(await exists('made'), false);
    assert.equal(await exists('found'), true);
  });

  it('marks what it creates, and takes what an interrupted run left marked as its own', async () => {
    const leftover = {
      ...configMap('leftover'),
      metadata: { name: 'leftover', namespace: 'default', labels: { [support.CREATED_BY_SUITE]: 'true' } },
    };
    await kubectl(['apply', '-f', '-'], JSON.stringify(configMap('mine')));
    await kubectl(['apply', '-f', '-'], JSON.stringify(leftover));
    const file = join(dir, 'marked.json');
    const items = [configMap('mine'), configMap('leftover'), configMap('fresh')];
    await writeFile(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
    const args = ['-n', 'default', '-f', file];
    assert.deepEqual(
      (await support.foundInPlace(kubectl, args)).map((ref) => ref.name),
      ['mine'],
    );
    const owned: ObjectRef[] = [];
    await support.applyOwned(kubectl, args, owned);
    assert.deepEqual(owned.map((ref) => ref.name).sort(), ['fresh', 'leftover']);
    const fresh = JSON.parse(await kubectl(['get', 'configmap', 'fresh', '-n', 'default', '-o', 'json'])) as {
      metadata: { labels?: Record<string, string> };
    };
    assert.equal(fresh.metadata.labels?.[support.CREATED_BY_SUITE], 'true');
    await support.deleteObjects(kubectl, owned);
    assert.equal(await exists('leftover'), false);
    assert.equal(await exists('fresh'), false);
    assert.equal(await exists('mine'), true);
  });

  it('never takes a marked leftover namespace as its own (CRDs neither): others keep things in it', async () => {
    const labels = { [support.CREATED_BY_SUITE]: 'true' };
    const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'e2e-leftover', labels } };
    await kubectl(['apply', '-f', '-'], JSON.stringify(namespace));
    const file = join(dir, 'namespace.json');
    await writeFile(file, JSON.stringify(namespace));
    assert.deepEqual(
      (await support.foundInPlace(kubectl, ['-f', file])).map((ref) => `${ref.kind}/${ref.name}`),
      ['Namespace/e2e-leftover'],
    );
    const owned: ObjectRef[] = [];
    await support.applyOwned(kubectl, ['-f', file], owned);
    assert.deepEqual(owned, []);
  });

  it('an object no manager finalizes in time loses its finalizers, and the error says so', async () => {
    await kubectl(['apply', '-f', '-'], JSON.stringify(configMap('held', ['example.org/never-removed'])));
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'held' };
    await assert.rejects(
      support.deleteFinalized(kubectl, [ref], '2s'),
      /did not finalize the suite’s objects in time/,
    );
    assert.equal(await exists('held'), false);
  });

  it('sets up the metrics callers again over what an interrupted run left, and deletes them', async () => {
    await kubectl(['create', 'namespace', 'webapp-operator-system']);
    await support.setUpMetricsCallers(
      kubectl,
      'webapp-operator-metrics-reader',
      'webapp-operator-controller-manager',
    );
    const refs = await support.setUpMetricsCallers(
      kubectl,
      'webapp-operator-metrics-reader',
      'webapp-operator-controller-manager',
    );
    assert.deepEqual(
      refs.map((ref) => `${ref.kind}/${ref.name}`),
      [
        'ClusterRoleBinding/webapp-operator-e2e-metrics-reader',
        'ServiceAccount/webapp-operator-e2e-metrics-without-role',
      ],
    );
    await support.deleteObjects(kubectl, refs);
    const left = await kubectl([
      'get',
      'clusterrolebinding',
      'webapp-operator-e2e-metrics-reader',
      '--ignore-not-found',
    ]);
    assert.equal(left, '');
  });
});
