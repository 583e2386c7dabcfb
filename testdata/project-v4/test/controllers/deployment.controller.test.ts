/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startEnvironment } from 'tsoperator/envtest';
import { ApiEventRecorder, Manager, done, newClient } from '../../src/runtime/index.ts';
import { DeploymentReconciler } from '../../src/controllers/deployment.controller.ts';

// The controller runs against a real kube-apiserver and etcd (envtest), called directly: a test
// drives one reconcile at a time and looks at what it wrote.
test('DeploymentReconciler', async (t) => {
  await using env = await startEnvironment();
  // What the test writes and checks goes straight to the API server.
  const client = newClient({ kubeConfig: env.kubeConfig });
  const events = new ApiEventRecorder({ client, reportingController: 'deployment-controller' });
  // The reconciler reads through the manager's cache, with the watches and field indexes its setup
  // registers, as under `npm start`; its controller is never started: the test calls reconcile.
  const mgr = await Manager.create({ kubeConfig: env.kubeConfig });
  const reconciler = new DeploymentReconciler(mgr.client, events);
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

  await t.test('is done with an object that no longer exists', async () => {
    const result = await reconciler.reconcile({ namespace: 'default', name: 'missing' }, signal);

    assert.deepEqual(result, done());
  });
});
