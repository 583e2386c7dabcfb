import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { installWebhooks, startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newClient } from '../../../src/runtime/client/client.ts';
import {
  MutatingWebhookConfigurationKind,
  ValidatingWebhookConfigurationKind,
} from '../../../src/runtime/client/kinds.ts';
import { webhookManifests } from '../webhook/webapp.ts';

const server = { url: 'https://127.0.0.1:9443', caBundle: '-----BEGIN CERTIFICATE-----\nlocal\n' };

describe('installWebhooks', () => {
  let env: Environment;

  before(async () => {
    env = await startEnvironment();
  });
  after(() => env.stop());

  it('creates the generated configurations calling the local server at each path, trusting its CA', async () => {
    const installed = await installWebhooks(env, webhookManifests, server);

    assert.deepEqual(
      installed.map((m) => m.kind),
      ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'],
    );
    const client = newClient({ kubeConfig: env.kubeConfig });
    const mutating = await client.get(MutatingWebhookConfigurationKind, {
      name: 'mutating-webhook-configuration',
    });
    assert.deepEqual(mutating?.webhooks?.[0]?.clientConfig, {
      url: 'https://127.0.0.1:9443/mutate-webhook-tsoperator-dev-v1-webapp',
      caBundle: Buffer.from(server.caBundle).toString('base64'),
    });
    const validating = await client.get(ValidatingWebhookConfigurationKind, {
      name: 'validating-webhook-configuration',
    });
    assert.equal(
      validating?.webhooks?.[0]?.clientConfig.url,
      'https://127.0.0.1:9443/validate-webhook-tsoperator-dev-v1-webapp',
    );
  });

  it('replaces what an earlier run installed, for a server restarted on another port', async () => {
    await installWebhooks(env, webhookManifests, { ...server, url: 'https://127.0.0.1:10443' });

    const client = newClient({ kubeConfig: env.kubeConfig });
    const mutating = await client.get(MutatingWebhookConfigurationKind, {
      name: 'mutating-webhook-configuration',
    });
    assert.equal(
      mutating?.webhooks?.[0]?.clientConfig.url,
      'https://127.0.0.1:10443/mutate-webhook-tsoperator-dev-v1-webapp',
    );
  });

  it('refuses a server without a CA, and says to run `tsoperator manifests` when there is no file', async () => {
    await assert.rejects(installWebhooks(env, webhookManifests, { ...server, caBundle: '' }), /needs the CA/);
    await assert.rejects(
      installWebhooks(env, 'config/webhook/none.yaml', server),
      /run `tsoperator manifests` first/,
    );
  });
});
