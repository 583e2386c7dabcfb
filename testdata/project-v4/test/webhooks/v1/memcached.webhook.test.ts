/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import { loadYaml } from '@kubernetes/client-node';
import { installWebhooks, startEnvironment } from 'tsoperator/envtest';
import { type Memcached } from '../../../src/api/v1/memcached.types.ts';
import { Manager, WebhookServer, newClient } from '../../../src/runtime/index.ts';
import { setupMemcachedV1Webhooks } from '../../../src/webhooks/v1/memcached.webhook.ts';

/** The API server picks new webhook configurations up asynchronously: probe until they answer. */
async function untilWebhooksAnswer(probe: () => Promise<boolean>): Promise<void> {
  for (let attempt = 1; !(await probe()); attempt += 1) {
    if (attempt === 100) throw new Error('the API server did not call the webhooks within 10 s');
    await setTimeout(100);
  }
}

// The manager's webhook server, with a generated certificate, serves the webhooks of every version
// of the Memcached, as the API server calls each version's for the others' objects too (matchPolicy
// Equivalent); the real kube-apiserver (envtest) calls them over TLS, configured by what `npm run
// manifests` generated.
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
  // Only the webhooks this server serves are installed: other kinds' have their own tests.
  const local = {
    url: server.url,
    caBundle: mgr.webhookServer.caBundle ?? '',
    paths: mgr.webhookServer.paths,
  };
  await installWebhooks(env, 'config/webhook/manifests.yaml', local);
  const client = newClient({ kubeConfig: env.kubeConfig });
  const key = { namespace: 'default', name: 'test-memcached' };
  // The objects under test are the kind's sample, under the test's name: keep the sample valid as
  // the spec gains fields, and this test compiles and passes whatever the spec holds.
  const memcached = async (name: string): Promise<Memcached> => {
    const fromFile = loadYaml<Memcached>(await readFile('config/samples/crew_v1_memcached.yaml', 'utf8'));
    return { ...fromFile, metadata: { name, namespace: key.namespace } };
  };
  await untilWebhooksAnswer(async () =>
    client.create(await memcached('a'.repeat(64)), { dryRun: true }).then(
      () => false,
      () => true,
    ),
  );

  await t.test('refuses a Memcached whose name is longer than a label value', async () => {
    await assert.rejects(
      client.create(await memcached('a'.repeat(64))),
      /metadata\.name: Too long: must be no more than 63 characters/,
    );
  });

  await t.test('admits its sample', async () => {
    const created = await client.create(await memcached(key.name));

    assert.equal(created.metadata?.name, key.name);
  });
});
