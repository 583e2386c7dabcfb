import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { installWebhooks, startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { ApiError, isInvalid } from '../../../src/runtime/client/api-error.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import type { Manager } from '../../../src/runtime/manager/manager.ts';
import { WebhookServer } from '../../../src/runtime/webhook/webhook-server.ts';
import { eventually } from '../../support/eventually.ts';
import { runInBackground, testManager } from '../controller/support.ts';
import {
  DEFAULT_IMAGE,
  installCrdPointingAt,
  webAppDefaulter,
  WebAppKind,
  webAppV2Conversion,
  webAppValidator,
  webhookManifests,
  type WebApp,
} from './webapp.ts';

const webApp = (name: string, spec: WebApp['spec']): WebApp => ({
  apiVersion: WebAppKind.apiVersion,
  kind: WebAppKind.kind,
  metadata: { name, namespace: 'default' },
  spec,
});

/** The error a write is refused with. */
async function refusal(write: Promise<unknown>): Promise<ApiError> {
  try {
    await write;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('the write was admitted');
}

describe('admission webhooks of the manager, called by the real API server over TLS', () => {
  let env: Environment;
  let mgr: Manager;
  let run: ReturnType<typeof runInBackground>;
  let client: Client;
  const registry = new Registry();

  before(async () => {
    env = await startEnvironment();
    client = newClient({ kubeConfig: env.kubeConfig });
    const webhookServer = new WebhookServer({ port: 0, host: '127.0.0.1', registry });
    mgr = await testManager(env, { registry, webhookServer });
    mgr.webhookServer.registerDefaulter(WebAppKind, webAppDefaulter);
    mgr.webhookServer.registerValidator(WebAppKind, webAppValidator);
    mgr.webhookServer.registerConversion(WebAppKind, { v2: webAppV2Conversion });
    // As `npm start` does: serve first, register the configurations pointing here, then run
    // the manager, which keeps the started server.
    const { url } = await mgr.webhookServer.start();
    await installCrdPointingAt(env, mgr.webhookServer);
    await installWebhooks(env, webhookManifests, { url, caBundle: mgr.webhookServer.caBundle ?? '' });
    // A manager runs while it has controllers.
    mgr.controller(WebAppKind).complete({ reconcile: async () => ({}) });
    run = runInBackground(mgr);
    // The API server picks new webhook configurations up asynchronously: probe with dry runs.
    await eventually(async () => {
      const probe = await client.create(webApp('probe', {}), { dryRun: true });
      return probe.spec?.replicas === 1 ? true : undefined;
    }, 'the defaulting webhook to be called');
    await eventually(async () => {
      const admitted = client.create(webApp('probe', { replicas: 11 }), { dryRun: true });
      return admitted.then(
        () => undefined,
        (err: unknown) => {
          if (isInvalid(err)) return true;
          throw err;
        },
      );
    }, 'the validating webhook to be called');
  });
  after(async () => {
    await run.stop();
    await env.stop();
  });

  it('fills in the defaults of an object created without them', async () => {
    const created = await client.create(webApp('plain', { ports: [8080] }));
    assert.deepEqual(created.spec, { ports: [8080], replicas: 1, image: DEFAULT_IMAGE });
    const stored = await client.get(WebAppKind, { namespace: 'default', name: 'plain' });
    assert.deepEqual(stored?.spec, created.spec);
  });

  it('keeps values the user set', async () => {
    const created = await client.create(webApp('custom', { replicas: 3, image: 'httpd:2' }));
    assert.deepEqual(created.spec, { replicas: 3, image: 'httpd:2' });
  });

  it("refuses an invalid object with the validator's message, on create and on update", async () => {
    const err = await refusal(client.create(webApp('big', { replicas: 11 })));
    assert.ok(isInvalid(err), err.message);
    assert.equal(
      err.status.message,
      'admission webhook "vwebapp-v1.kb.io" denied the request: WebApp.webhook.tsoperator.dev "big" is invalid: spec.replicas: Invalid value: 11: must be at most 10',
    );
    const small = await client.create(webApp('grows', { replicas: 2 }));
    const update = await refusal(client.update({ ...small, spec: { ...small.spec, replicas: 12 } }));
    assert.match(update.status.message ?? '', /"grows" is invalid: spec.replicas: Invalid value: 12/);
  });

  it("shows the validator's warnings to the client (kubectl prints them)", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'webhook-kubectl-'));
    try {
      const file = join(dir, 'webapp.json');
      await writeFile(file, JSON.stringify(webApp('busy', { replicas: 7 })));
      const kubectl = join(env.binDir, 'kubectl');
      const { stdout, stderr } = await promisify(execFile)(kubectl, [
        '--kubeconfig',
        env.kubeconfigPath,
        'create',
        '-f',
        file,
      ]);
      assert.match(stdout, /webapp\.webhook\.tsoperator\.dev\/busy created/);
      assert.match(stderr, /^Warning: 7 replicas: more than 5 needs a capacity review$/m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("counts the calls in controller_runtime_webhook_* on the manager's /metrics", async () => {
    const text = await (await fetch(`${mgr.metricsUrl}/metrics`)).text();
    assert.match(
      text,
      /controller_runtime_webhook_requests_total\{webhook="\/mutate-webhook-tsoperator-dev-v1-webapp",code="200"\} [1-9]/,
    );
    assert.match(
      text,
      /controller_runtime_webhook_latency_seconds_count\{webhook="\/validate-webhook-tsoperator-dev-v1-webapp"\} [1-9]/,
    );
  });

  describe('failure policy, with the webhook server down', () => {
    const policyServer = new WebhookServer({ port: 0, host: '127.0.0.1', registry: new Registry() });
    const seen = new Set<string>();
    const configMap = (name: string, policy: string): V1ConfigMap => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'default', labels: { policy } },
    });

    before(async () => {
      const path = policyServer.registerValidator(ConfigMapKind, {
        validateCreate: (cm) => void seen.add(cm.metadata?.labels?.['policy'] ?? ''),
      });
      await policyServer.start();
      const webhook = (policy: 'Fail' | 'Ignore'): object => ({
        name: `${policy.toLowerCase()}.policy.tsoperator.dev`,
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        failurePolicy: policy,
        objectSelector: { matchLabels: { policy: policy.toLowerCase() } },
        clientConfig: policyServer.clientConfig(path),
        rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
      });
      await client.create({
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'failure-policy' },
        webhooks: [webhook('Fail'), webhook('Ignore')],
      });
      // Both webhooks are known to be in effect once each has been called while the server was up.
      await eventually(async () => {
        await client.create(configMap('probe', 'fail'), { dryRun: true });
        await client.create(configMap('probe', 'ignore'), { dryRun: true });
        return seen.has('fail') && seen.has('ignore') ? true : undefined;
      }, 'both failure-policy webhooks to be called');
      await policyServer.close();
    });

    it('refuses with failurePolicy Fail', async () => {
      const err = await refusal(client.create(configMap('refused', 'fail')));
      assert.match(err.status.message ?? '', /failed calling webhook "fail\.policy\.tsoperator\.dev"/);
      assert.equal(await client.get(ConfigMapKind, { namespace: 'default', name: 'refused' }), undefined);
    });

    it('admits with failurePolicy Ignore', async () => {
      const created = await client.create(configMap('admitted', 'ignore'));
      assert.equal(created.metadata?.labels?.['policy'], 'ignore');
    });
  });
});
