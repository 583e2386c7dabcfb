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
import { installConversionCrds, installWebhooks, startEnvironment } from 'tsoperator/envtest';
import { CaptainKind, type Captain } from '../../../src/api/v1/captain.types.ts';
import {
  CaptainKind as CaptainV2Kind,
  type Captain as CaptainV2,
} from '../../../src/api/v2/captain.types.ts';
import { Manager, WebhookServer, newClient } from '../../../src/runtime/index.ts';
import { setupCaptainV1Webhooks } from '../../../src/webhooks/v1/captain.webhook.ts';

/** The API server picks new webhook configurations up asynchronously: probe until they answer. */
async function untilWebhooksAnswer(probe: () => Promise<boolean>): Promise<void> {
  for (let attempt = 1; !(await probe()); attempt += 1) {
    if (attempt === 100) throw new Error('the API server did not call the webhooks within 10 s');
    await setTimeout(100);
  }
}

// The manager's webhook server, with a generated certificate, serves the webhooks of every version
// of the Captain, as the API server calls each version's for the others' objects too (matchPolicy
// Equivalent); the real kube-apiserver (envtest) calls them over TLS, configured by what `npm run
// manifests` generated.
test('Captain v1 webhooks', async (t) => {
  // The CRDs are installed once the webhook server runs: their conversion calls it.
  await using env = await startEnvironment();
  // Port 0 takes a free port, so that test files running side by side do not collide.
  const mgr = await Manager.create({
    kubeConfig: env.kubeConfig,
    webhookServer: new WebhookServer({ port: 0 }),
  });
  setupCaptainV1Webhooks(mgr);
  const server = await mgr.webhookServer.start();
  t.after(() => server.close());
  // Only the webhooks this server serves are installed: other kinds' have their own tests.
  const local = {
    url: server.url,
    caBundle: mgr.webhookServer.caBundle ?? '',
    paths: mgr.webhookServer.paths,
  };
  await installConversionCrds(env, 'config/crd/bases', local);
  await installWebhooks(env, 'config/webhook/manifests.yaml', local);
  const client = newClient({ kubeConfig: env.kubeConfig });
  const key = { namespace: 'default', name: 'test-captain' };
  // The objects under test are the kind's sample, under the test's name: keep the sample valid as
  // the spec gains fields, and this test compiles and passes whatever the spec holds.
  const captain = async (name: string): Promise<Captain> => {
    const fromFile = loadYaml<Captain>(await readFile('config/samples/crew_v1_captain.yaml', 'utf8'));
    return { ...fromFile, metadata: { name, namespace: key.namespace } };
  };
  // The objects under test are the kind's sample, under the test's name: keep the sample valid as
  // the spec gains fields, and this test compiles and passes whatever the spec holds.
  const captainV2 = async (name: string): Promise<CaptainV2> => {
    const fromFile = loadYaml<CaptainV2>(await readFile('config/samples/crew_v2_captain.yaml', 'utf8'));
    return { ...fromFile, metadata: { name, namespace: key.namespace } };
  };
  await untilWebhooksAnswer(async () => {
    const probe = await captain('probe');
    delete probe.spec?.crewSize;
    const answered = await client.create(probe, { dryRun: true });
    return answered.spec?.crewSize === 1;
  });

  await t.test('fills in the defaults', async () => {
    const defaulted = await captain('defaulted');
    delete defaulted.spec?.crewSize;

    const created = await client.create(defaulted);

    assert.equal(created.spec?.crewSize, 1);
  });

  await t.test("refuses an invalid Captain with the validator's message", async () => {
    const invalid = await captain('invalid');
    if (invalid.spec) invalid.spec.shipName = '';

    await assert.rejects(client.create(invalid), /spec\.shipName: Required value: must not be empty/);
  });

  await t.test('admits its sample', async () => {
    const created = await client.create(await captain(key.name));

    assert.equal(created.metadata?.name, key.name);
  });

  await t.test('v2 converts to v1 and back through the API server', async () => {
    const name = 'from-v2';
    const written = await captainV2(name);
    await client.create(written);

    const hub = await client.get(CaptainKind, { ...key, name });
    const spoke = await client.get(CaptainV2Kind, { ...key, name });

    assert.equal(hub?.apiVersion, CaptainKind.apiVersion);
    assert.equal(spoke?.apiVersion, CaptainV2Kind.apiVersion);
    // The conversion does not keep all of v2 yet (see its notes): once it does, check the
    // whole round trip here with assert.partialDeepStrictEqual(spoke, written).
    // The fields both versions have agree in both, and hold what the sample set (the rest defaulted).
    const shared = { shipName: hub?.spec?.shipName, crewSize: hub?.spec?.crewSize, rank: hub?.spec?.rank };
    assert.deepEqual(
      { shipName: spoke?.spec?.shipName, crewSize: spoke?.spec?.crewSize, rank: spoke?.spec?.rank },
      shared,
    );
    const set = Object.entries({
      shipName: written?.spec?.shipName,
      crewSize: written?.spec?.crewSize,
      rank: written?.spec?.rank,
    }).filter(([, value]) => value !== undefined);
    assert.deepEqual({ ...shared, ...Object.fromEntries(set) }, shared);
  });
});
