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
import { MemcachedKind, type Memcached } from '../../../src/api/v1/memcached.types.ts';
import { Manager, WebhookServer, newClient } from '../../../src/runtime/index.ts';
import { setupMemcachedV1Webhooks } from '../../../src/webhooks/v1/memcached.webhook.ts';

/** The API server picks new webhook configurations up asynchronously: probe until they answer. */
async function untilWebhooksAnswer(probe: () => Promise<boolean>): Promise<void> {
  for (let attempt = 1; !(await probe()); attempt += 1) {
    if (attempt === 100) throw new Error('the API server did not call the webhooks within 10 s');
    await setTimeout(100);
  }
}

// The manager's webhook server, with a generated certificate, serves the webhooks; the real
// kube-apiserver (envtest) calls them over TLS, configured by what `npm run manifests` generated.
test('Memcached v1 webhooks', async (t) => {
  await using env = await startEnvironment({ crdPaths: ['config/crd/bases'] });
  // Port 0 takes a free port, so that test files running side by side do not collide.
  const mgr = await Manager.create({
    kubeConfig: env.kubeConfig,
    webhookServer: new WebhookServer({ port: 0 }),
  });
  setupMemcachedV1Webhooks(mgr);
  const server = await mgr.webhookServer.start();
  t.after(() => server.close());
  const local = { url: server.url, caBundle: mgr.webhookServer.caBundle ?? '' };
  await installWebhooks(env, 'config/webhook/manifests.yaml', local);
  const client = newClient({ kubeConfig: env.kubeConfig });
  const key = { namespace: 'default', name: 'test-memcached' };
  const memcached = (name: string, spec: Memcached['spec']): Memcached => ({
    apiVersion: MemcachedKind.apiVersion,
    kind: MemcachedKind.kind,
    metadata: { name, namespace: key.namespace },
    spec,
  });
  await untilWebhooksAnswer(() =>
    client
      .create(memcached('a'.repeat(64), { image: 'memcached:1.6.26-alpine3.19', port: 11211 }), {
        dryRun: true,
      })
      .then(
        () => false,
        () => true,
      ),
  );

  await t.test('refuses a Memcached whose name is longer than a label value', async () => {
    await assert.rejects(
      client.create(memcached('a'.repeat(64), { image: 'memcached:1.6.26-alpine3.19', port: 11211 })),
      /metadata\.name: Too long: must be no more than 63 characters/,
    );
  });

  await t.test('admits a valid Memcached', async () => {
    const created = await client.create(
      memcached(key.name, { image: 'memcached:1.6.26-alpine3.19', port: 11211 }),
    );

    assert.equal(created.metadata?.name, key.name);
  });
});
