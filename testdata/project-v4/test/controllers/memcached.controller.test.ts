/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { V1Deployment } from '@kubernetes/client-node';
import { startEnvironment } from 'tsoperator/envtest';
import { MemcachedKind } from '../../src/api/v1/memcached.types.ts';
import {
  ApiEventRecorder,
  DeploymentKind,
  EventKind,
  ServiceKind,
  done,
  findStatusCondition,
  getControllerOf,
  mergePatch,
  newClient,
  type Json,
  type Kind,
  type KubeObject,
  type Result,
} from '../../src/runtime/index.ts';
import { MemcachedReconciler, MEMCACHED_FINALIZER } from '../../src/controllers/memcached.controller.ts';

// The controller runs against a real control plane (envtest) with a node: kube-controller-manager
// runs the Deployment, kube-scheduler places its Pods and kwok plays the node's kubelet, so the
// Pods turn Ready. The test calls the reconciler directly, one reconcile at a time, and looks at
// what it wrote.
test('MemcachedReconciler', async (t) => {
  await using env = await startEnvironment({ crdPaths: ['config/crd/bases'], nodes: 1 });
  const client = newClient({ kubeConfig: env.kubeConfig });
  const events = new ApiEventRecorder({ client, reportingController: 'memcached-controller' });
  const reconciler = new MemcachedReconciler(client, events);
  const signal = AbortSignal.timeout(120_000);
  const key = { namespace: 'default', name: 'test-memcached' };
  // kube-controller-manager writes the Deployment too: a reconcile that met its write (a conflict)
  // asks to run again at once, and the test does, as the manager would.
  const reconcile = async (): Promise<Result> => {
    let result = await reconciler.reconcile(key, signal);
    while (result.requeue === true) result = await reconciler.reconcile(key, signal);
    return result;
  };
  // Reads one of the objects of the test, which must exist.
  const mustGet = async <T extends KubeObject>(kind: Kind<T>): Promise<Json<T>> => {
    const found = await client.get(kind, key);
    assert.ok(found, `the ${kind.kind} exists`);
    return found;
  };

  await t.test('creates a Deployment and a Service that the Memcached controls', async () => {
    // The image and the port are left out: the CRD defaults them.
    await client.create({
      apiVersion: MemcachedKind.apiVersion,
      kind: MemcachedKind.kind,
      metadata: key,
      spec: {},
    });

    await reconcile();

    const memcached = await mustGet(MemcachedKind);
    assert.deepEqual(memcached.spec, { image: 'memcached:1.6.26-alpine3.19', port: 11211, replicas: 1 });
    assert.deepEqual(memcached.metadata?.finalizers, [MEMCACHED_FINALIZER]);
    const deployment = await mustGet(DeploymentKind);
    assert.equal(deployment.spec?.template.spec?.containers[0]?.image, 'memcached:1.6.26-alpine3.19');
    assert.deepEqual(deployment.spec?.template.spec?.containers[0]?.command, [
      'memcached',
      '--memory-limit=64',
      '-o',
      'modern',
      '-v',
    ]);
    assert.equal(deployment.spec?.template.spec?.containers[0]?.securityContext?.runAsUser, 1001);
    assert.equal(getControllerOf(deployment)?.uid, memcached.metadata?.uid);
    const service = await mustGet(ServiceKind);
    assert.equal(service.spec?.ports?.[0]?.port, 11211);
    assert.equal(getControllerOf(service)?.uid, memcached.metadata?.uid);
    await events.flush();
    const recorded = await client.listAll(EventKind, { namespace: key.namespace });
    assert.ok(recorded.some((e) => e.reason === 'DeploymentCreated' && e.regarding?.name === key.name));
  });

  await t.test('reports no ready replica as Progressing, not Available', async () => {
    const memcached = await mustGet(MemcachedKind);

    assert.equal(memcached.status?.readyReplicas, 0);
    assert.equal(memcached.status?.observedGeneration, memcached.metadata?.generation);
    const conditions = memcached.status?.conditions ?? [];
    const available = findStatusCondition(conditions, 'Available');
    assert.equal(available?.status, 'False');
    assert.equal(available?.observedGeneration, memcached.metadata?.generation);
    assert.equal(findStatusCondition(conditions, 'Progressing')?.status, 'True');
    assert.equal(findStatusCondition(conditions, 'Degraded')?.status, 'False');
  });

  await t.test('copies the ready replicas once its Pod runs, and is Available', async () => {
    // Reconcile as the requeue would, until the Deployment's rollout is complete.
    await reconcile();
    while (!rolledOut(await mustGet(DeploymentKind))) {
      await sleep(200, undefined, { signal });
      await reconcile();
    }

    const result = await reconcile();

    assert.deepEqual(result, done());
    const memcached = await mustGet(MemcachedKind);
    assert.equal(memcached.status?.readyReplicas, 1);
    const conditions = memcached.status?.conditions ?? [];
    assert.equal(findStatusCondition(conditions, 'Available')?.status, 'True');
    assert.equal(findStatusCondition(conditions, 'Progressing')?.status, 'False');
  });

  await t.test('writes nothing when everything is as it should be', async () => {
    const versions = async (): Promise<(string | undefined)[]> =>
      [await mustGet(MemcachedKind), await mustGet(DeploymentKind), await mustGet(ServiceKind)].map(
        (o) => o.metadata?.resourceVersion,
      );
    const before = await versions();

    await reconcile();

    assert.deepEqual(await versions(), before);
  });

  await t.test('brings the Deployment to a changed spec', async () => {
    const change = mergePatch({ spec: { image: 'registry.example/web:2', replicas: 2 } });
    await client.patch(await mustGet(MemcachedKind), change);

    await reconcile();

    const deployment = await mustGet(DeploymentKind);
    assert.equal(deployment.spec?.replicas, 2);
    assert.equal(deployment.spec?.template.spec?.containers[0]?.image, 'registry.example/web:2');
    const memcached = await mustGet(MemcachedKind);
    assert.equal(memcached.status?.observedGeneration, 2);
    assert.equal(findStatusCondition(memcached.status?.conditions ?? [], 'Available')?.status, 'False');
  });

  await t.test('puts back a Deployment edited by hand and a Service deleted by hand', async () => {
    await client.patch(await mustGet(DeploymentKind), mergePatch({ spec: { replicas: 5 } }));
    const service = await mustGet(ServiceKind);
    await client.delete(service);

    await reconcile();

    assert.equal((await mustGet(DeploymentKind)).spec?.replicas, 2);
    assert.notEqual((await mustGet(ServiceKind)).metadata?.uid, service.metadata?.uid);
  });

  await t.test('runs the cleanup once deleted, and lets the Memcached go', async () => {
    await client.delete(await mustGet(MemcachedKind));
    assert.ok((await client.get(MemcachedKind, key))?.metadata?.deletionTimestamp, 'the finalizer holds it');

    await reconcile();

    assert.equal(await client.get(MemcachedKind, key), undefined);
    await events.flush();
    const recorded = await client.listAll(EventKind, { namespace: key.namespace });
    assert.ok(recorded.some((e) => e.reason === 'CleanedUp' && e.regarding?.name === key.name));
  });

  await t.test('is done with an object that no longer exists', async () => {
    assert.deepEqual(await reconcile(), done());
  });
});

/** The Deployment controller's last word on a rollout: every replica ready and available. */
function rolledOut(deployment: Json<V1Deployment>): boolean {
  const progressing = deployment.status?.conditions?.find((c) => c.type === 'Progressing');
  return (
    progressing?.reason === 'NewReplicaSetAvailable' &&
    deployment.status?.readyReplicas === deployment.spec?.replicas
  );
}
