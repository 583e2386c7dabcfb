/*
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
import { CronJobKind, type CronJob } from '../../../src/api/v1/cronjob.types.ts';
import {
  CronJobKind as CronJobV2Kind,
  type CronJob as CronJobV2,
} from '../../../src/api/v2/cronjob.types.ts';
import { Manager, WebhookServer, newClient } from '../../../src/runtime/index.ts';
import { setupCronJobV1Webhooks } from '../../../src/webhooks/v1/cronjob.webhook.ts';

/** The API server picks new webhook configurations up asynchronously: probe until they answer. */
async function untilWebhooksAnswer(probe: () => Promise<boolean>): Promise<void> {
  for (let attempt = 1; !(await probe()); attempt += 1) {
    if (attempt === 100) throw new Error('the API server did not call the webhooks within 10 s');
    await setTimeout(100);
  }
}

// The manager's webhook server, with a generated certificate, serves the webhooks of every version
// of the CronJob, as the API server calls each version's for the others' objects too (matchPolicy
// Equivalent); the real kube-apiserver (envtest) calls them over TLS, configured by what `npm run
// manifests` generated.
test('CronJob v1 webhooks', async (t) => {
  // The CRDs are installed once the webhook server runs: their conversion calls it.
  await using env = await startEnvironment();
  // Port 0 takes a free port, so that test files running side by side do not collide.
  const mgr = await Manager.create({
    kubeConfig: env.kubeConfig,
    webhookServer: new WebhookServer({ port: 0 }),
  });
  setupCronJobV1Webhooks(mgr);
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
  const key = { namespace: 'default', name: 'test-cronjob' };
  // The objects under test are the kind's sample, under the test's name: keep the sample valid as
  // the spec gains fields, and this test compiles and passes whatever the spec holds.
  const cronJob = async (name: string): Promise<CronJob> => {
    const fromFile = loadYaml<CronJob>(await readFile('config/samples/batch_v1_cronjob.yaml', 'utf8'));
    return { ...fromFile, metadata: { name, namespace: key.namespace } };
  };
  // The objects under test are the kind's sample, under the test's name: keep the sample valid as
  // the spec gains fields, and this test compiles and passes whatever the spec holds.
  const cronJobV2 = async (name: string): Promise<CronJobV2> => {
    const fromFile = loadYaml<CronJobV2>(await readFile('config/samples/batch_v2_cronjob.yaml', 'utf8'));
    return { ...fromFile, metadata: { name, namespace: key.namespace } };
  };
  await untilWebhooksAnswer(async () => {
    const probe = await cronJob('probe');
    delete probe.spec.suspend;
    const answered = await client.create(probe, { dryRun: true });
    return answered.spec.suspend === false;
  });

  await t.test('fills in the defaults', async () => {
    const defaulted = await cronJob('defaulted');
    delete defaulted.spec.suspend;
    delete defaulted.spec.successfulJobsHistoryLimit;
    delete defaulted.spec.failedJobsHistoryLimit;

    const created = await client.create(defaulted);

    assert.equal(created.spec.suspend, false);
    assert.equal(created.spec.successfulJobsHistoryLimit, 3);
    assert.equal(created.spec.failedJobsHistoryLimit, 1);
  });

  await t.test("refuses an invalid CronJob with the validator's message", async () => {
    const invalid = await cronJob('invalid');
    invalid.spec.schedule = 'every minute';

    await assert.rejects(client.create(invalid), /spec\.schedule: Invalid value: "every minute"/);
  });

  await t.test('refuses a schedule with seconds, or with no next run', async () => {
    const seconds = await cronJob('seconds');
    seconds.spec.schedule = '0 */5 * * * *';
    await assert.rejects(client.create(seconds), /spec\.schedule: Invalid value: .*: must have five fields/);
    const never = await cronJob('never');
    never.spec.schedule = '0 0 31 2 *';
    await assert.rejects(client.create(never), /spec\.schedule: Invalid value: .*: has no next run/);
  });

  await t.test('refuses a name too long for the names of its Jobs', async () => {
    await assert.rejects(client.create(await cronJob('a'.repeat(53))), /metadata\.name: Too long/);
  });

  await t.test('admits its sample', async () => {
    const created = await client.create(await cronJob(key.name));

    assert.equal(created.metadata?.name, key.name);
  });

  // #region schedule-text
  await t.test('keeps v1 schedule text that v2 cannot hold as written', async () => {
    for (const [name, schedule] of [
      ['hourly', '@hourly'],
      ['two-spaces', '*/5  * * * *'],
    ] as const) {
      const written = await cronJob(name);
      written.spec.schedule = schedule;
      await client.create(written);
      const asV2 = await client.get(CronJobV2Kind, { ...key, name });
      assert.ok(asV2);
      await client.update(asV2);

      const back = await client.get(CronJobKind, { ...key, name });

      assert.equal(back?.spec.schedule, schedule);
      assert.equal(back?.metadata?.annotations, undefined);
    }
  });
  // #endregion schedule-text

  await t.test('v2 converts to v1 and back through the API server', async () => {
    const name = 'from-v2';
    const written = await cronJobV2(name);
    await client.create(written);

    const hub = await client.get(CronJobKind, { ...key, name });
    const spoke = await client.get(CronJobV2Kind, { ...key, name });

    assert.equal(hub?.apiVersion, CronJobKind.apiVersion);
    assert.equal(spoke?.apiVersion, CronJobV2Kind.apiVersion);
    // #region round-trip
    // A lossless conversion: all the sample set comes back as written, through v1.
    assert.partialDeepStrictEqual(spoke, written);
    // #endregion round-trip
    // The fields both versions have agree in both, and hold what the sample set (the rest defaulted).
    const shared = {
      startingDeadlineSeconds: hub.spec.startingDeadlineSeconds,
      concurrencyPolicy: hub.spec.concurrencyPolicy,
      suspend: hub.spec.suspend,
      successfulJobsHistoryLimit: hub.spec.successfulJobsHistoryLimit,
      failedJobsHistoryLimit: hub.spec.failedJobsHistoryLimit,
    };
    assert.deepEqual(
      {
        startingDeadlineSeconds: spoke.spec.startingDeadlineSeconds,
        concurrencyPolicy: spoke.spec.concurrencyPolicy,
        suspend: spoke.spec.suspend,
        successfulJobsHistoryLimit: spoke.spec.successfulJobsHistoryLimit,
        failedJobsHistoryLimit: spoke.spec.failedJobsHistoryLimit,
      },
      shared,
    );
    const set = Object.entries({
      startingDeadlineSeconds: written.spec.startingDeadlineSeconds,
      concurrencyPolicy: written.spec.concurrencyPolicy,
      suspend: written.spec.suspend,
      successfulJobsHistoryLimit: written.spec.successfulJobsHistoryLimit,
      failedJobsHistoryLimit: written.spec.failedJobsHistoryLimit,
    }).filter(([, value]) => value !== undefined);
    assert.deepEqual({ ...shared, ...Object.fromEntries(set) }, shared);
  });
});
