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
import { loadYaml } from '@kubernetes/client-node';
import { eventually, startEnvironment } from 'tsoperator/envtest';
import { CronJobKind, type CronJob } from '../../../src/api/batch/v1/cronjob.types.ts';
import {
  ApiEventRecorder,
  EventKind,
  Manager,
  done,
  findStatusCondition,
  newClient,
  type Result,
} from '../../../src/runtime/index.ts';
import { CronJobReconciler, CRON_JOB_FINALIZER } from '../../../src/controllers/batch/cronjob.controller.ts';

// The controller runs against a real kube-apiserver and etcd (envtest), called directly: a test
// drives one reconcile at a time and looks at what it wrote.
test('CronJobReconciler', async (t) => {
  await using env = await startEnvironment({ crdPaths: ['config/crd/bases'] });
  // What the test writes and checks goes straight to the API server.
  const client = newClient({ kubeConfig: env.kubeConfig });
  const events = new ApiEventRecorder({ client, reportingController: 'cronjob-controller' });
  // The reconciler reads through the manager's cache, with the watches and field indexes its setup
  // registers, as under `npm start`; its controller is never started: the test calls reconcile.
  const mgr = await Manager.create({ kubeConfig: env.kubeConfig });
  const reconciler = new CronJobReconciler(mgr.client, events);
  reconciler.setup(mgr);
  // Declared after the environment, so disposed before it: the caches stop before the API server.
  using caches = {
    stop: new AbortController(),
    [Symbol.dispose](): void {
      this.stop.abort();
    },
  };
  mgr.cache.start(caches.stop.signal);
  const signal = AbortSignal.timeout(60_000);
  assert.ok(await mgr.cache.waitForCacheSync(signal), 'the caches synced');

  const key = { namespace: 'default', name: 'test-cronjob' };
  // The object under test is the sample of config/samples, under the test's name: keep the sample
  // valid as the spec gains fields, and this test compiles and passes whatever the spec holds.
  const sample = async (): Promise<CronJob> => {
    const fromFile = loadYaml<CronJob>(await readFile('config/samples/batch_v1_cronjob.yaml', 'utf8'));
    return { ...fromFile, metadata: { name: key.name, namespace: key.namespace } };
  };
  // The cache sees a write a moment after the API server answered it: reconcile once it has.
  const cacheCaughtUp = async (): Promise<void> => {
    const latest = (await client.get(CronJobKind, key))?.metadata?.resourceVersion;
    await eventually(async () => {
      const cached = await mgr.client.get(CronJobKind, key, { signal });
      assert.equal(cached?.metadata?.resourceVersion, latest);
    });
  };
  const eventReasons = async (): Promise<string[]> => {
    await events.flush();
    const recorded = await client.listAll(EventKind, { namespace: key.namespace });
    return recorded.filter((e) => e.regarding?.name === key.name).map((e) => e.reason ?? '');
  };

  await t.test(
    'adds no finalizer, and reports the generation it reconciled without claiming Available',
    async () => {
      await client.create(await sample());
      await cacheCaughtUp();

      const result = await reconciler.reconcile(key, signal);

      assert.deepEqual(result, done());
      const reconciled = await client.get(CronJobKind, key);
      const generation = reconciled?.metadata?.generation;
      assert.equal(reconciled?.metadata?.finalizers, undefined);
      assert.equal(reconciled?.status?.observedGeneration, generation);
      const conditions = reconciled?.status?.conditions ?? [];
      // apply makes nothing yet: it must not say that something is available.
      assert.equal(findStatusCondition(conditions, 'Available')?.status, 'Unknown');
      assert.equal(findStatusCondition(conditions, 'Degraded')?.status, 'False');
      assert.equal(findStatusCondition(conditions, 'Degraded')?.observedGeneration, generation);
      assert.ok((await eventReasons()).includes('Reconciled'));
    },
  );

  await t.test('is deleted without the operator while cleansUpOutsideTheCluster is off', async () => {
    const cronJob = await client.get(CronJobKind, key);
    assert.ok(cronJob);
    await client.delete(cronJob);

    assert.equal(await client.get(CronJobKind, key), undefined);
  });

  // As the reconciler is once cleansUpOutsideTheCluster is turned on.
  const cleaning = new (class extends CronJobReconciler {
    override readonly cleansUpOutsideTheCluster = true;
  })(mgr.client, events);

  await t.test('with cleanup on, keeps a finalizer while the CronJob lives', async () => {
    await client.create(await sample());
    await cacheCaughtUp();

    assert.deepEqual(await cleaning.reconcile(key, signal), done());

    const reconciled = await client.get(CronJobKind, key);
    assert.deepEqual(reconciled?.metadata?.finalizers, [CRON_JOB_FINALIZER]);
  });

  await t.test(
    'with cleanup on, reports a failing cleanup as Degraded, and keeps the finalizer',
    async () => {
      const failing = new (class extends CronJobReconciler {
        override readonly cleansUpOutsideTheCluster = true;
        override async cleanup(): Promise<Result> {
          throw new Error('the external resource is busy');
        }
      })(mgr.client, events);
      const cronJob = await client.get(CronJobKind, key);
      assert.ok(cronJob);
      await client.delete(cronJob);
      await cacheCaughtUp();

      await assert.rejects(failing.reconcile(key, signal), /the external resource is busy/);

      const held = await client.get(CronJobKind, key);
      assert.deepEqual(held?.metadata?.finalizers, [CRON_JOB_FINALIZER]);
      const degraded = findStatusCondition(held?.status?.conditions ?? [], 'Degraded');
      assert.equal(degraded?.status, 'True');
      assert.equal(degraded?.message, 'the external resource is busy');
      assert.ok((await eventReasons()).includes('CleanupFailed'));
    },
  );

  await t.test(
    'runs the cleanup once deleted, and lets the CronJob go, even with cleanup turned off again',
    async () => {
      await cacheCaughtUp();
      const result = await reconciler.reconcile(key, signal);

      assert.deepEqual(result, done());
      assert.equal(await client.get(CronJobKind, key), undefined);
      assert.ok((await eventReasons()).includes('CleanedUp'));
    },
  );

  await t.test('is done with an object that no longer exists', async () => {
    const result = await reconciler.reconcile({ namespace: 'default', name: 'missing' }, signal);

    assert.deepEqual(result, done());
  });
});
