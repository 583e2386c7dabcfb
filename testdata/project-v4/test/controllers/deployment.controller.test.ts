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
import { ApiEventRecorder, done, newClient } from '../../src/runtime/index.ts';
import { DeploymentReconciler } from '../../src/controllers/deployment.controller.ts';

// The controller runs against a real kube-apiserver and etcd (envtest), called directly: a test
// drives one reconcile at a time and looks at what it wrote.
test('DeploymentReconciler', async (t) => {
  await using env = await startEnvironment();
  const client = newClient({ kubeConfig: env.kubeConfig });
  const events = new ApiEventRecorder({ client, reportingController: 'deployment-controller' });
  const reconciler = new DeploymentReconciler(client, events);
  const signal = AbortSignal.timeout(60_000);

  await t.test('is done with an object that no longer exists', async () => {
    const result = await reconciler.reconcile({ namespace: 'default', name: 'missing' }, signal);

    assert.deepEqual(result, done());
  });
});
