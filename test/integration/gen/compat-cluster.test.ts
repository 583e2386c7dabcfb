import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { load } from 'js-yaml';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { isNotFound } from '../../../src/runtime/client/api-error.ts';
import { transportFor, type Transport } from '../../../src/runtime/client/transport.ts';
import { runCliCaptured } from '../../support/captured-cli.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { BREAKING_FINDINGS, breakTheApi, committedProject } from '../../support/compat-project.ts';

/*
 * `manifests --check --against-cluster`: the baseline is the CRD installed in the cluster of the
 * current kubeconfig, here a real API server with the project's first CRD installed.
 */
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CRD_FILE = join('config', 'crd', 'bases', 'demo.example.org_webapps.yaml');

let env: Environment;
let transport: Transport;
let dir = '';
const start = process.cwd();
const kubeconfig = process.env['KUBECONFIG'];

async function againstCluster(): ReturnType<typeof runCliCaptured> {
  return runCliCaptured(['manifests', '--check', '--against-cluster']);
}

before(async () => {
  dir = await committedProject('main');
  env = await startEnvironment();
  transport = transportFor(env.kubeConfig);
  const crd = load(await readFile(CRD_FILE, 'utf8'));
  await transport.request({ method: 'POST', path: CRDS, body: crd });
  await breakTheApi(dir);
  process.env['KUBECONFIG'] = env.kubeconfigPath;
});

after(async () => {
  if (kubeconfig === undefined) delete process.env['KUBECONFIG'];
  else process.env['KUBECONFIG'] = kubeconfig;
  process.chdir(start);
  await env.stop();
  await rm(dirname(dir), { recursive: true, force: true });
});

describe('tsoperator manifests --check --against-cluster', () => {
  it("reports the breaking changes against the cluster's CRD", async () => {
    const result = await againstCluster();
    assert.equal(result.code, 1);
    assert.deepEqual(
      result.stdout.split('\n').filter((l) => l.startsWith('webapps.')),
      BREAKING_FINDINGS,
    );
    assert.match(result.stderr, /3 incompatible changes against cluster https:\/\/127\.0\.0\.1:\d+/);
  });

  it('finds nothing to break for a CRD the cluster does not have', async () => {
    const path = `${CRDS}/webapps.demo.example.org`;
    await transport.request({ method: 'DELETE', path });
    // A deleted CRD stays, terminating, until the API server has cleaned up after it.
    await eventuallyTrue(
      () => transport.request({ method: 'GET', path }).then(() => false, isNotFound),
      'the CRD to be gone',
    );
    const result = await againstCluster();
    assert.equal(result.code, 1, 'the files on disk are still stale');
    assert.doesNotMatch(result.stdout, /^webapps\./m);
    assert.doesNotMatch(result.stderr, /incompatible/);
  });

  it('says what to set when there is no kubeconfig', async () => {
    process.env['KUBECONFIG'] = join(dir, 'no-such-kubeconfig');
    const result = await againstCluster();
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^Error: --against-cluster: none of the files in KUBECONFIG exists/);
    process.env['KUBECONFIG'] = env.kubeconfigPath;
  });
});
