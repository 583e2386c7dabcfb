import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import type { KubernetesObject } from '@kubernetes/client-node';
import { execa } from 'execa';
import { startEnvironment } from '../../src/envtest/index.ts';
import { newClient } from '../../src/runtime/client/client.ts';
import { defineKind } from '../../src/runtime/client/kind.ts';
import {
  installTsoperator,
  packCheckout,
  runAnyway,
  runIn,
  tsoperatorIn,
  type CommandResult,
} from '../support/generated-project.ts';
import { eventually } from '../support/eventually.ts';

/**
 * The webhook flow, end to end: init, create api, create webhook --defaulting
 * --programmatic-validation, npm install (tsoperator packed from this checkout), then the project's
 * build, lint and tests, its webhook test calling the manager's webhook server from a real
 * kube-apiserver through the generated webhook configuration.
 */
describe('a scaffolded project with webhooks builds, lints and tests green', () => {
  let root = '';
  let project = '';
  let tarball = '';

  /** Runs a command in the generated project, failing with its output when it fails. */
  const run = (file: string, args: readonly string[]): Promise<string> => runIn(project, file, args);

  const tsoperator = (args: readonly string[]): Promise<string> => tsoperatorIn(project, args);

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'tsoperator-e2e-webhook-'));
    project = join(root, 'webapp-operator');
    await mkdir(project);
    // Packs the built CLI (`npm run build` first, as for every test of the bin).
    tarball = await packCheckout(root);
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('init, create api, then create webhook --defaulting --programmatic-validation', async () => {
    await tsoperator(['init', '--domain', 'example.org', '--project-name', 'webapp-operator']);
    await tsoperator(['create', 'api', '--group', 'demo', '--version', 'v1', '--kind', 'WebApp']);
    const output = await tsoperator([
      'create',
      'webhook',
      '--group',
      'demo',
      '--version',
      'v1',
      '--kind',
      'WebApp',
      '--defaulting',
      '--programmatic-validation',
    ]);
    assert.match(output, /create {4}src\/webhooks\/v1\/webapp\.defaulter\.ts/);
    assert.ok(existsSync(join(project, 'config', 'webhook', 'manifests.yaml')));
  });

  it('create api --version v2, then create webhook --conversion --spoke v2 on the existing webhook', async () => {
    const api = ['create', 'api', '--group', 'demo', '--version', 'v2', '--kind', 'WebApp'];
    await tsoperator([...api, '--controller=false']);
    const output = await tsoperator([
      'create',
      'webhook',
      '--group',
      'demo',
      '--version',
      'v1',
      '--kind',
      'WebApp',
      '--conversion',
      '--spoke',
      'v2',
    ]);
    assert.match(output, /create {4}src\/webhooks\/v2\/webapp\.conversion\.ts/);
    assert.match(output, /create {4}config\/crd\/patches\/webhook_in_webapps\.yaml/);
  });

  it('npm install, with tsoperator from this checkout', async () => {
    await installTsoperator(project, tarball);
  });

  it('npm run build: the webhooks are in the bundle', async () => {
    await run('npm', ['run', 'build']);
    assert.match(await readFile(join(project, 'dist', 'main.js'), 'utf8'), /setupWebAppV1Webhooks/);
  });

  it('npm run lint', async () => {
    await run('npm', ['run', 'lint']);
  });

  it('npm test: the API server calls the webhooks, which fill in a default and refuse an invalid WebApp', async () => {
    const output = await run('npm', ['test']);
    assert.match(output, /✔ fills in the defaults/);
    assert.match(output, /✔ refuses an invalid WebApp with the validator's message/);
    assert.match(output, /✔ v2 converts to v1 and back through the API server/);
    assert.match(output, /ℹ fail 0/);
  });

  it('npm start serves the webhooks with a generated local CA, and --webhook-install-local points the API server at them', async () => {
    await using env = await startEnvironment();
    // As a user installs them: the CRD converts through the in-cluster Service, absent here.
    const cluster = {
      KUBECONFIG: env.admin.kubeconfigPath,
      PATH: `${env.binDir}:${process.env['PATH'] ?? ''}`,
    };
    const installCrds = (): Promise<CommandResult> =>
      runAnyway(project, 'npm', ['run', 'install-crds'], cluster);
    const installed = await installCrds();
    assert.equal(installed.exitCode, 0, installed.output);
    const manager = execa(
      process.execPath,
      ['src/main.ts', '--metrics-bind-address=0', '--health-probe-bind-address=0', '--webhook-install-local'],
      { cwd: project, env: { KUBECONFIG: env.admin.kubeconfigPath }, all: true, reject: false },
    );
    try {
      let output = '';
      manager.all.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await eventually(
        async () => (output.includes('"url":"https://127.0.0.1:9443"') ? true : undefined),
        'the manager to serve its webhooks on 9443',
      );

      const issuer = await peerCertificateIssuer(
        'https://127.0.0.1:9443/validate-demo-example-org-v1-webapp',
      );
      assert.equal(issuer, 'tsoperator-webhook-local-ca');

      // The API server now calls this process: the generated defaulter fills in spec.foo.
      const client = newClient({ kubeConfig: env.kubeConfig });
      defineKind({ apiVersion: 'demo.example.org/v1', kind: 'WebApp', plural: 'webapps', namespaced: true });
      let attempt = 0;
      const defaulted = await eventually(async () => {
        attempt += 1;
        const app = await client.create<KubernetesObject & { spec?: { foo?: string } }>({
          apiVersion: 'demo.example.org/v1',
          kind: 'WebApp',
          metadata: { name: `local-${attempt}`, namespace: 'default' },
          spec: {},
        });
        return app.spec?.foo === 'default' ? app : undefined;
      }, 'the API server to call the local defaulting webhook');
      assert.equal(defaulted.spec?.foo, 'default');

      // The CRD now converts through this process (the API server takes a moment to see it): the
      // v1 object reads as v2.
      const WebAppV2 = defineKind<KubernetesObject & { spec?: { foo?: string } }>({
        apiVersion: 'demo.example.org/v2',
        kind: 'WebApp',
        plural: 'webapps',
        namespaced: true,
      });
      const key = { namespace: 'default', name: defaulted.metadata?.name ?? '' };
      const v2 = await eventually(
        () => client.get(WebAppV2, key).catch(() => undefined),
        'the API server to convert through the local conversion webhook',
      );
      assert.equal(v2.apiVersion, 'demo.example.org/v2');
      assert.equal(v2.spec?.foo, 'default');
    } finally {
      manager.kill('SIGTERM');
    }
    const result = await manager;
    assert.equal(result.exitCode, 0, result.all);
    // It put the CRD's Service back on exit: the CRDs install again.
    const reinstalled = await installCrds();
    assert.equal(reinstalled.exitCode, 0, reinstalled.output);
  });
});

/** The common name of the issuer of the certificate a server presents (not verified: it is a local CA). */
function peerCertificateIssuer(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', rejectUnauthorized: false }, (res) => {
      const socket = res.socket as TLSSocket;
      resolve(String(socket.getPeerCertificate().issuer.CN));
      res.resume();
    });
    req.on('error', reject);
    req.end('{}');
  });
}
