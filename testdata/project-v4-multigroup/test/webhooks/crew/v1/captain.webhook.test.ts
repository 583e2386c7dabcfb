/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import { installWebhooks, startEnvironment } from 'tsoperator/envtest';
import { CaptainKind, type Captain } from '../../../../src/api/crew/v1/captain.types.ts';
import { Manager, WebhookServer, newClient } from '../../../../src/runtime/index.ts';
import { setupCaptainV1Webhooks } from '../../../../src/webhooks/crew/v1/captain.webhook.ts';

/** The API server picks new webhook configurations up asynchronously: probe until they answer. */
async function untilWebhooksAnswer(probe: () => Promise<boolean>): Promise<void> {
  for (let attempt = 1; !(await probe()); attempt += 1) {
    if (attempt === 100) throw new Error('the API server did not call the webhooks within 10 s');
    await setTimeout(100);
  }
}

// The manager's webhook server, with a generated certificate, serves the webhooks; the real
// kube-apiserver (envtest) calls them over TLS, configured by what `npm run manifests` generated.
test('Captain v1 webhooks', async (t) => {
  await using env = await startEnvironment({ crdPaths: ['config/crd/bases'] });
  // Port 0 takes a free port, so that test files running side by side do not collide.
  const mgr = await Manager.create({
    kubeConfig: env.kubeConfig,
    webhookServer: new WebhookServer({ port: 0 }),
  });
  setupCaptainV1Webhooks(mgr);
  const server = await mgr.webhookServer.start();
  t.after(() => server.close());
  const local = { url: server.url, caBundle: mgr.webhookServer.caBundle ?? '' };
  await installWebhooks(env, 'config/webhook/manifests.yaml', local);
  const client = newClient({ kubeConfig: env.kubeConfig });
  const key = { namespace: 'default', name: 'test-captain' };
  const captain = (name: string, spec: Captain['spec']): Captain => ({
    apiVersion: CaptainKind.apiVersion,
    kind: CaptainKind.kind,
    metadata: { name, namespace: key.namespace },
    spec,
  });
  await untilWebhooksAnswer(async () => {
    const probe = await client.create(captain('probe', {}), { dryRun: true });
    return probe.spec?.foo === 'default';
  });

  await t.test('fills in the defaults', async () => {
    const created = await client.create(captain('defaulted', {}));

    assert.equal(created.spec?.foo, 'default');
  });

  await t.test("refuses an invalid Captain with the validator's message", async () => {
    await assert.rejects(
      client.create(captain('invalid', { foo: '' })),
      /spec\.foo: Required value: must not be empty/,
    );
  });

  await t.test('admits a valid Captain', async () => {
    const created = await client.create(captain(key.name, { foo: 'example' }));

    assert.equal(created.metadata?.name, key.name);
  });
});
