/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  DeploymentKind,
  EventKind,
  ServiceKind,
  findStatusCondition,
  mergePatch,
  newClient,
  type Client,
} from '../../src/runtime/index.ts';
import { MEMCACHED_FINALIZER } from '../../src/controllers/memcached.controller.ts';
import { MemcachedKind, type Memcached } from '../../src/api/v1alpha1/memcached.types.ts';
import { dependentSteps } from './support/dependent-steps.ts';
import {
  SAMPLE_NAMESPACE,
  SET_UP_TIMEOUT_MS,
  TEAR_DOWN_TIMEOUT_MS,
  eventually,
  type E2eCluster,
} from './support/e2e-cluster.ts';
import { startE2eCluster } from './support/start-e2e-cluster.ts';

// The manager runs as it runs in a cluster, as its own ServiceAccount with only config/rbac's rights,
// and the Memcached of config/samples goes through its life: ready, scaled, repaired, deleted. Each
// step starts where the one before ended: after a failure, the later ones are skipped.
// `npm run test:e2e` runs it on a control plane with a node; E2E_USE_CURRENT_CLUSTER=true IMG=<image>
// runs it in the cluster of the current kubeconfig instead.
describe('Memcached, end to end', () => {
  let cluster: E2eCluster | undefined;
  /** The start, kept for the teardown: one that ends after `before` timed out must be stopped too. */
  let starting: Promise<E2eCluster> | undefined;
  let client: Client;
  const key = { namespace: SAMPLE_NAMESPACE, name: 'memcached-sample' };
  const step = dependentSteps();

  before(
    async () => {
      starting = startE2eCluster();
      cluster = await starting;
      client = newClient({ kubeConfig: cluster.kubeConfig });
    },
    { timeout: SET_UP_TIMEOUT_MS },
  );
  after(
    async () => {
      // A failed start tore down what it had set up.
      await (await starting?.catch(() => undefined))?.stop();
    },
    { timeout: TEAR_DOWN_TIMEOUT_MS },
  );

  function started(): E2eCluster {
    assert.ok(cluster, 'the manager started');
    return cluster;
  }

  /** `eventually`, with the manager's logs in the error: what a failed wait needs to be understood. */
  async function waitFor<T>(
    read: () => Promise<T | undefined>,
    what: string,
    timeoutMs?: number,
  ): Promise<T> {
    try {
      return await eventually(read, what, timeoutMs);
    } catch (err) {
      // The wait's failure stays the message, even when the logs cannot be read.
      const logs = await started()
        .logs()
        .catch((logsErr: unknown) => `(the manager's logs could not be read: ${String(logsErr)})`);
      throw new Error(`${String(err)}\n--- manager logs ---\n${logs}`, { cause: err });
    }
  }

  /** The Memcached once its status, of its latest spec, reports `ready` ready replicas and Available=True. */
  async function availableWith(ready: number): Promise<Memcached | undefined> {
    const current = await client.get(MemcachedKind, key);
    const available = findStatusCondition(current?.status?.conditions ?? [], 'Available');
    const observed = current?.status?.observedGeneration === current?.metadata?.generation;
    return observed && current?.status?.readyReplicas === ready && available?.status === 'True'
      ? current
      : undefined;
  }

  it(
    'runs the sample: a Deployment with ready replicas, and Available=True',
    step(async () => {
      await started().applySample('config/samples/cache_v1alpha1_memcached.yaml', key.namespace);
      const memcached = await waitFor(() => availableWith(1), 'the Memcached to be Available', 180_000);
      assert.equal(memcached.status?.observedGeneration, memcached.metadata?.generation);
      const deployment = await client.get(DeploymentKind, key);
      assert.equal(deployment?.status?.readyReplicas, 1);
      assert.ok(await client.get(ServiceKind, key), 'the Service exists');
    }),
  );

  it(
    'serves /metrics to a caller holding the metrics-reader role',
    step(async () => {
      const answer = await started().metrics('metrics-reader');
      assert.equal(answer.status, 200, answer.body);
      assert.match(answer.body, /^controller_runtime_reconcile_total\{controller="memcached"/m);
    }),
  );

  it(
    'refuses /metrics to a caller without a token: 401',
    step(async () => {
      const answer = await started().metrics('without-token');
      assert.equal(answer.status, 401, answer.body);
    }),
  );

  it(
    'refuses /metrics to a ServiceAccount without the metrics-reader role: 403',
    step(async () => {
      const answer = await started().metrics('without-role');
      assert.equal(answer.status, 403, answer.body);
    }),
  );

  it(
    'scales up when spec.replicas grows, and reports the status of that spec',
    step(async () => {
      const memcached = await client.get(MemcachedKind, key);
      assert.ok(memcached);
      const patched = await client.patch(memcached, mergePatch({ spec: { replicas: 2 } }));
      const scaled = await waitFor(
        () => availableWith(2),
        'the Memcached to be Available with 2 ready replicas',
      );
      assert.equal(scaled.status?.observedGeneration, patched.metadata?.generation);
      assert.equal((await client.get(DeploymentKind, key))?.status?.readyReplicas, 2);
    }),
  );

  it(
    'repairs a Deployment edited by hand',
    step(async () => {
      const deployment = await client.get(DeploymentKind, key);
      assert.ok(deployment);
      await client.patch(deployment, mergePatch({ spec: { replicas: 5 } }));
      await waitFor(async () => {
        const current = await client.get(DeploymentKind, key);
        return current?.spec?.replicas === 2 ? current : undefined;
      }, 'the manager to set the Deployment back to 2 replicas');
    }),
  );

  it(
    'runs its finalizer on delete, then the Deployment and the Service go with the Memcached',
    step(async () => {
      const memcached = await client.get(MemcachedKind, key);
      assert.ok(memcached);
      assert.ok(
        memcached.metadata?.finalizers?.includes(MEMCACHED_FINALIZER),
        'the manager added its finalizer',
      );
      await client.delete(memcached);
      await waitFor(
        async () => ((await client.get(MemcachedKind, key)) === undefined ? true : undefined),
        'the Memcached to go once its finalizer ran',
      );
      // The clean-up records this event just before it removes the finalizer.
      await waitFor(async () => {
        const events = await client.listAll(EventKind, { namespace: key.namespace });
        const uid = memcached.metadata?.uid;
        return events.some((e) => e.regarding?.uid === uid && e.reason === 'CleanedUp') ? true : undefined;
      }, 'the CleanedUp event of the Memcached’s clean-up');
      await waitFor(async () => {
        const [deployment, service] = await Promise.all([
          client.get(DeploymentKind, key),
          client.get(ServiceKind, key),
        ]);
        return deployment === undefined && service === undefined ? true : undefined;
      }, 'the garbage collector to delete the Deployment and the Service');
    }),
  );
});
