/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { loadYaml } from '@kubernetes/client-node';
import { eventually, startEnvironment } from 'tsoperator/envtest';
import { CronJobKind, type CronJob } from '../../src/api/v1/cronjob.types.ts';
import {
  FakeClock,
  JobKind,
  Manager,
  done,
  findStatusCondition,
  mergePatch,
  newClient,
  systemClock,
} from '../../src/runtime/index.ts';
import { CronJobReconciler, SCHEDULED_TIME_ANNOTATION } from '../../src/controllers/cronjob.controller.ts';

// The controller runs against a real kube-apiserver and etcd (envtest), called directly: a test
// drives one reconcile at a time, at the time it sets, and looks at what it wrote.
test('CronJobReconciler', async (t) => {
  await using env = await startEnvironment({ crdPaths: ['config/crd/bases'] });
  const client = newClient({ kubeConfig: env.kubeConfig });
  // The reconciler reads through the manager's cache, with the watch and field index its setup
  // registers, as under `npm start`; its controller is never started: the test calls reconcile.
  const mgr = await Manager.create({ kubeConfig: env.kubeConfig });
  // #region fake-clock
  // The clock the reconciler reads: the test moves it, nothing sleeps.
  const clock = new FakeClock(systemClock.now());
  const reconciler = new CronJobReconciler(mgr.client, mgr.events, clock);
  // #endregion fake-clock
  reconciler.setup(mgr);
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
  const sample = async (): Promise<CronJob> => {
    const fromFile = loadYaml<CronJob>(await readFile('config/samples/batch_v1_cronjob.yaml', 'utf8'));
    return { ...fromFile, metadata: { name: key.name, namespace: key.namespace } };
  };
  // The cache sees a write a moment after the API server answered it: reconcile once it has.
  const cacheCaughtUp = async (): Promise<void> => {
    const latest = await client.listAll(JobKind, { namespace: key.namespace });
    const cronJob = await client.get(CronJobKind, key);
    await eventually(async () => {
      const cached = await mgr.client.listAll(JobKind, { namespace: key.namespace });
      assert.deepEqual(cached.map(resourceVersion), latest.map(resourceVersion));
      const cachedCronJob = await mgr.client.get(CronJobKind, key, { signal });
      assert.equal(cachedCronJob?.metadata?.resourceVersion, cronJob?.metadata?.resourceVersion);
    });
  };
  const jobs = (): Promise<string[]> =>
    client
      .listAll(JobKind, { namespace: key.namespace })
      .then((all) => all.filter((job) => job.metadata?.deletionTimestamp === undefined).map(name));
  // #region finish-jobs
  // No kube-controller-manager runs here: the test says how each running Job ended, as the Job
  // controller would.
  const finishJobs = async (): Promise<void> => {
    for (const job of await client.listAll(JobKind, { namespace: key.namespace })) {
      if (job.status?.conditions !== undefined) continue;
      const now = new Date().toISOString();
      const status = {
        startTime: now,
        completionTime: now,
        succeeded: 1,
        conditions: [
          { type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: now },
          { type: 'Complete', status: 'True', lastTransitionTime: now },
        ],
      };
      await client.status().patch(job, mergePatch({ status }));
    }
  };
  // #endregion finish-jobs

  // #region test-runs
  await t.test('starts nothing before the first run is due', async () => {
    await client.create(await sample());
    await cacheCaughtUp();
    // From the second the CronJob was created: a minute on, a run is always due.
    const created = Date.parse((await client.get(CronJobKind, key))?.metadata?.creationTimestamp ?? '');
    if (created > clock.now()) clock.advance(created - clock.now());

    const result = await reconciler.reconcile(key, signal);

    assert.ok(result.requeueAfter !== undefined && result.requeueAfter <= 60_000, 'called again for the run');
    assert.deepEqual(await jobs(), []);
  });

  await t.test('starts the due run once, and reports it', async () => {
    clock.advance(60_000);

    await reconciler.reconcile(key, signal);
    await cacheCaughtUp();
    await reconciler.reconcile(key, signal);

    const started = await client.listAll(JobKind, { namespace: key.namespace });
    assert.equal(started.length, 1, 'one Job, though reconciled twice');
    const cronJob = await client.get(CronJobKind, key);
    assert.deepEqual(
      cronJob?.status?.active?.map((job) => job.name),
      started.map(name),
    );
    const scheduledAt = started[0]?.metadata?.annotations?.[SCHEDULED_TIME_ANNOTATION];
    assert.equal(cronJob?.status?.lastScheduleTime, scheduledAt);
    assert.equal(findStatusCondition(cronJob?.status?.conditions ?? [], 'Available')?.status, 'True');
  });

  await t.test('keeps successfulJobsHistoryLimit finished Jobs, the newest', async () => {
    for (let run = 0; run < 2; run += 1) {
      await finishJobs();
      clock.advance(60_000);
      await cacheCaughtUp();
      await reconciler.reconcile(key, signal);
    }
    await finishJobs();
    await cacheCaughtUp();
    await reconciler.reconcile(key, signal);

    // The sample keeps one successful Job: of three finished runs, the newest is left.
    const newest = (await client.get(CronJobKind, key))?.status?.lastScheduleTime ?? '';
    const seconds = (Date.parse(newest) / 1000).toString();
    assert.deepEqual(await jobs(), [`${key.name}-${seconds}`]);
  });

  await t.test('does not start a run again once the history limit deleted its Job', async () => {
    const cronJob = await client.get(CronJobKind, key);
    assert.ok(cronJob);
    await client.patch(cronJob, mergePatch({ spec: { successfulJobsHistoryLimit: 0 } }));
    await cacheCaughtUp();
    await reconciler.reconcile(key, signal);
    await cacheCaughtUp();

    await reconciler.reconcile(key, signal);

    assert.deepEqual(await jobs(), []);
  });

  await t.test('with Replace, deletes the running Job before it starts the next', async () => {
    const cronJob = await client.get(CronJobKind, key);
    assert.ok(cronJob);
    await client.patch(cronJob, mergePatch({ spec: { concurrencyPolicy: 'Replace' } }));
    clock.advance(60_000);
    await cacheCaughtUp();
    await reconciler.reconcile(key, signal);
    const [running] = await jobs();
    clock.advance(60_000);
    await cacheCaughtUp();

    await reconciler.reconcile(key, signal);

    const [next, ...others] = await jobs();
    assert.ok(
      running !== undefined && next !== undefined && next !== running,
      'a new Job replaced the running one',
    );
    assert.deepEqual(others, []);
    const active = (await client.get(CronJobKind, key))?.status?.active ?? [];
    assert.deepEqual(
      active.map((job) => job.name),
      [next],
    );
    assert.ok(active[0]?.uid, 'the reference names the Job by uid too');
  });

  await t.test('starts nothing while suspended', async () => {
    const cronJob = await client.get(CronJobKind, key);
    assert.ok(cronJob);
    await client.patch(cronJob, mergePatch({ spec: { suspend: true } }));
    const before = await jobs();
    clock.advance(5 * 60_000);
    await cacheCaughtUp();

    assert.deepEqual(await reconciler.reconcile(key, signal), done());

    assert.deepEqual(await jobs(), before);
    const conditions = (await client.get(CronJobKind, key))?.status?.conditions ?? [];
    assert.equal(findStatusCondition(conditions, 'Available')?.reason, 'Suspended');
  });
  // #endregion test-runs

  await t.test('is done with an object that no longer exists', async () => {
    const result = await reconciler.reconcile({ namespace: 'default', name: 'missing' }, signal);

    assert.deepEqual(result, done());
  });
});

function name(object: { metadata?: { name?: string } }): string {
  return object.metadata?.name ?? '';
}

function resourceVersion(object: { metadata?: { resourceVersion?: string } }): string {
  return object.metadata?.resourceVersion ?? '';
}
