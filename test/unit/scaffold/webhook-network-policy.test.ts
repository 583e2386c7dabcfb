import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load, loadAll } from 'js-yaml';
import { regenerateManifests } from '../../../src/scaffold/regenerate-manifests.ts';
import { scaffoldWebhook } from '../../../src/scaffold/webhook/scaffold-webhook.ts';
import { snapshotFolder } from '../../support/folder-snapshot.ts';
import { createApi, inEmptyProjectFolder, initProject } from '../../support/scaffold-project.ts';

interface NetworkPolicy {
  metadata: { name: string };
  spec: {
    podSelector: { matchLabels: Record<string, string> };
    policyTypes: string[];
    ingress: { from?: unknown[]; ports: { port: number; protocol: string }[] }[];
  };
}

interface JsonPatchOp {
  path: string;
  value?: { name?: string; containerPort?: number };
}

test('create webhook admits the API server to the webhook port once config/network-policy is enabled', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    await createApi(dir, { group: 'demo', version: 'v1', kind: 'WebApp' });
    await regenerateManifests(dir);
    const options = { defaulting: true, validation: false, conversion: false, spokes: [], force: false };
    await scaffoldWebhook({ dir, kind: 'WebApp', ...options }, { dryRun: false });
    // A second webhook adds nothing more to the policies.
    await scaffoldWebhook(
      { dir, kind: 'WebApp', ...options, defaulting: false, validation: true },
      { dryRun: false },
    );
    const files = await snapshotFolder(dir);

    const kustomization = load(files.get('config/network-policy/kustomization.yaml') ?? '') as {
      resources: string[];
    };
    assert.deepEqual(kustomization.resources, ['allow-metrics-traffic.yaml', 'allow-webhook-traffic.yaml']);

    const policy = load(files.get('config/network-policy/allow-webhook-traffic.yaml') ?? '') as NetworkPolicy;
    const manager = loadAll(files.get('config/manager/manager.yaml') ?? '') as {
      kind: string;
      spec?: { template: { metadata: { labels: Record<string, string> } } };
    }[];
    const podLabels = manager.find((o) => o.kind === 'Deployment')?.spec?.template.metadata.labels;
    assert.deepEqual(policy.spec.podSelector.matchLabels, podLabels, "it selects the manager's Pod");
    // The port the manager's container serves the webhooks on, from any source: the API server
    // calls from outside the Pod network in most clusters.
    const patch = load(files.get('config/default/manager_webhook_patch.yaml') ?? '') as JsonPatchOp[];
    const webhookPort = patch.find((op) => op.value?.name === 'webhook-server')?.value?.containerPort;
    assert.equal(webhookPort, 9443);
    assert.deepEqual(policy.spec.policyTypes, ['Ingress']);
    assert.deepEqual(policy.spec.ingress, [{ ports: [{ port: webhookPort, protocol: 'TCP' }] }]);
  });
});
