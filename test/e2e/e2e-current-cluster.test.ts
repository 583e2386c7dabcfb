import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEnvironment, type Environment } from '../../src/envtest/index.ts';
import {
  installedProject,
  runAnyway,
  runIn,
  tsoperatorIn,
  type CommandResult,
} from '../support/generated-project.ts';

const PROJECT = 'webapp-operator';
const WEBAPP = '--group demo --version v1 --kind WebApp --image nginx:1.27 --port 80'.split(' ');

/**
 * A generated project's e2e suite with E2E_USE_CURRENT_CLUSTER, against a control plane with a node
 * as the current kubeconfig's cluster. kwok runs no image: the Deployment of deploy/install.yaml gets
 * Ready Pods but no manager, so the test runs the built manager as an administrator beside it, and
 * skips the /metrics steps (their curl Pod never runs either). Before the suite, the CRD is installed:
 * an object of deploy/install.yaml the suite finds in place, and must leave.
 */
describe('the e2e suite in the current cluster (E2E_USE_CURRENT_CLUSTER)', () => {
  let root = '';
  let project = '';
  let env: Environment;
  let manager: ChildProcess | undefined;

  const kubectl = async (args: readonly string[]): Promise<string> =>
    runIn(project, join(env.binDir, 'kubectl'), ['--kubeconfig', env.kubeconfigPath, ...args]);

  /** `npm run test:e2e` with `vars`, the control plane as the current cluster. */
  const suite = (vars: Record<string, string>): Promise<CommandResult> =>
    runAnyway(project, 'npm', ['run', 'test:e2e'], {
      KUBECONFIG: env.kubeconfigPath,
      PATH: `${env.binDir}${delimiter}${process.env['PATH'] ?? ''}`,
      IMG: 'controller:e2e',
      ...vars,
    });

  async function cleanedUpEvents(): Promise<number> {
    const reasons = await kubectl([
      'get',
      'events.events.k8s.io',
      '-n',
      'default',
      '-o',
      'jsonpath={.items[*].reason}',
    ]);
    return reasons.split(' ').filter((reason) => reason === 'CleanedUp').length;
  }

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'tsoperator-e2e-current-'));
    project = await installedProject(root, [WEBAPP]);
    await runIn(project, 'npm', ['run', 'build']);
    env = await startEnvironment({ nodes: 1 });
    await kubectl(['apply', '--server-side', '-k', 'config/crd']);
    await kubectl(['wait', '--for=condition=Established', 'crd', '--all', '--timeout=60s']);
    manager = spawn(
      process.execPath,
      [
        'dist/main.js',
        `--kubeconfig=${env.kubeconfigPath}`,
        '--metrics-bind-address=0',
        '--health-probe-bind-address=0',
      ],
      { cwd: project, stdio: 'ignore' },
    );
  });
  after(async () => {
    manager?.kill('SIGKILL');
    await env?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('refuses E2E_USE_CURRENT_CLUSTER=yes, saying what it takes, instead of testing elsewhere', async () => {
    const { exitCode, output } = await suite({ E2E_USE_CURRENT_CLUSTER: 'yes' });
    assert.equal(exitCode, 1);
    assert.match(output, /E2E_USE_CURRENT_CLUSTER=yes is not understood: set it to true \(or 1\)/);
    assert.doesNotMatch(output, /ℹ pass [1-9]/);
  });

  it('walks the sample through its life, then removes what it created and leaves the CRD it found', async () => {
    const { exitCode, output } = await suite({
      E2E_USE_CURRENT_CLUSTER: 'true',
      NODE_OPTIONS: '--test-skip-pattern=metrics',
    });
    assert.equal(exitCode, 0, output);
    assert.match(output, /✔ runs its finalizer on delete/);
    assert.match(output, /ℹ pass 4\b/);
    assert.match(await kubectl(['get', 'crd', '-o', 'name']), /webapps\.demo\.example\.org/);
    assert.equal(
      await kubectl(['get', 'namespace', `${PROJECT}-system`, '--ignore-not-found', '-o', 'name']),
      '',
    );
    const bindings = await kubectl(['get', 'clusterrolebinding', '-o', 'name']);
    assert.doesNotMatch(bindings, new RegExp(`${PROJECT}-`));
  });

  it('stopped after its first step, deletes its sample first, while the manager still finalizes it', async () => {
    const cleanedUp = await cleanedUpEvents();
    const { exitCode, output } = await suite({
      E2E_USE_CURRENT_CLUSTER: '1',
      // NODE_OPTIONS is split at spaces.
      NODE_OPTIONS: '--test-name-pattern=runs.the.sample',
    });
    assert.equal(exitCode, 0, output);
    assert.match(output, /ℹ pass 1\b/);
    assert.equal(
      (await kubectl(['get', 'webapps', '-A', '-o', 'jsonpath={.items[*].metadata.name}'])).trim(),
      '',
    );
    assert.equal(
      await cleanedUpEvents(),
      cleanedUp + 1,
      'the finalizer ran for the sample the teardown deleted',
    );
    assert.equal(
      await kubectl(['get', 'namespace', `${PROJECT}-system`, '--ignore-not-found', '-o', 'name']),
      '',
    );
  });

  // Last: the webhook stays in the project.
  it('with webhooks, refuses a cluster without cert-manager, saying what to install, before applying anything', async () => {
    await tsoperatorIn(project, [
      'create',
      'webhook',
      ...'--group demo --version v1 --kind WebApp --defaulting'.split(' '),
    ]);
    const { exitCode, output } = await suite({ E2E_USE_CURRENT_CLUSTER: 'true' });
    assert.equal(exitCode, 1);
    assert.match(output, /this cluster has no cert-manager: install it \(https:\/\/cert-manager\.io/);
    assert.doesNotMatch(output, /ℹ pass [1-9]/);
    assert.equal(
      await kubectl(['get', 'namespace', `${PROJECT}-system`, '--ignore-not-found', '-o', 'name']),
      '',
    );
  });
});
