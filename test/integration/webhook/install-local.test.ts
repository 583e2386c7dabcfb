import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newClient } from '../../../src/runtime/client/client.ts';
import { WebhookServer } from '../../../src/runtime/webhook/webhook-server.ts';
import { mutatePath } from '../../../src/runtime/webhook/webhook-paths.ts';
import { eventually } from '../../support/eventually.ts';
import { runInBackground, testManager, WidgetKind, widgetsCrd, type Widget } from '../controller/support.ts';

describe('a manager run outside the cluster with webhookInstallLocal', () => {
  let env: Environment;
  let dir: string;
  before(async () => {
    env = await startEnvironment({ crdPaths: [widgetsCrd] });
    dir = await mkdtemp(join(tmpdir(), 'tsoperator-local-webhooks-'));
  });
  after(async () => {
    await env.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('points the generated webhook configuration at itself, so the API server calls its defaulter', async () => {
    // As `tsoperator manifests` writes it: the webhook calls the in-cluster Service.
    const manifests = join(dir, 'manifests.yaml');
    await writeFile(
      manifests,
      [
        'apiVersion: admissionregistration.k8s.io/v1',
        'kind: MutatingWebhookConfiguration',
        'metadata:',
        '  name: mutating-webhook-configuration',
        'webhooks:',
        '- admissionReviewVersions: [v1]',
        '  clientConfig:',
        '    service: {name: webhook-service, namespace: system, path: ' + mutatePath(WidgetKind) + '}',
        '  failurePolicy: Fail',
        '  name: mwidget-v1.kb.io',
        '  rules:',
        '  - {apiGroups: [ctrl.tsoperator.dev], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [widgets]}',
        '  sideEffects: None',
        '',
      ].join('\n'),
    );
    const webhookServer = new WebhookServer({ port: 0, host: '127.0.0.1' });
    webhookServer.registerDefaulter<Widget>(WidgetKind, {
      default: (widget) => {
        widget.spec = { mode: 'standard', ...widget.spec };
      },
    });
    const mgr = await testManager(env, { webhookServer, webhookInstallLocal: manifests });
    const run = runInBackground(mgr);
    try {
      const client = newClient({ kubeConfig: env.kubeConfig });
      // The configuration takes a moment to reach the API server's admission chain.
      const created = await eventually(async () => {
        const name = `w-${Date.now()}`;
        const widget = await client.create<Widget>({
          apiVersion: WidgetKind.apiVersion,
          kind: 'Widget',
          metadata: { name, namespace: 'default' },
          spec: { size: 1 },
        });
        return widget.spec?.mode === 'standard' ? widget : undefined;
      }, 'the defaulter to be called by the API server');
      assert.deepEqual(created.spec, { mode: 'standard', size: 1 });
    } finally {
      await run.stop();
    }
  });
});
