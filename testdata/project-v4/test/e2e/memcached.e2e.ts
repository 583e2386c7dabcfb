/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  DeploymentKind,
  ServiceKind,
  findStatusCondition,
  mergePatch,
  newClient,
  type Client,
} from '../../src/runtime/index.ts';
import { MemcachedKind, type Memcached } from '../../src/api/v1/memcached.types.ts';
import { eventually, type E2eCluster } from './support/e2e-cluster.ts';
import { startE2eCluster } from './support/start-e2e-cluster.ts';

// The manager runs as it runs in a cluster, as its own ServiceAccount with only config/rbac's rights,
// and the Memcached of config/samples goes through its life: ready, scaled, repaired, deleted.
// `npm run test:e2e` runs it on a control plane with a node; E2E_USE_CURRENT_CLUSTER=1 IMG=<image>
// runs it in the cluster of the current kubeconfig instead.
describe('Memcached, end to end', () => {
  let cluster: E2eCluster;
  let client: Client;
  const key = { namespace: 'default', name: 'memcached-sample' };

  before(async () => {
    cluster = await startE2eCluster();
    client = newClient({ kubeConfig: cluster.kubeConfig });
  });
  after(async () => {
    await cluster?.stop();
  });

  /** `eventually`, with the manager's logs in the error: what a failed wait needs to be understood. */
  async function waitFor<T>(
    read: () => Promise<T | undefined>,
    what: string,
    timeoutMs?: number,
  ): Promise<T> {
    try {
      return await eventually(read, what, timeoutMs);
    } catch (err) {
      throw new Error(`${String(err)}\n--- manager logs ---\n${await cluster.logs()}`, { cause: err });
    }
  }

  /** The Memcached once its status reports `ready` ready replicas and Available=True. */
  async function availableWith(ready: number): Promise<Memcached | undefined> {
    const current = await client.get(MemcachedKind, key);
    const available = findStatusCondition(current?.status?.conditions ?? [], 'Available');
    return current?.status?.readyReplicas === ready && available?.status === 'True' ? current : undefined;
  }

  it('runs the sample: a Deployment with ready replicas, and Available=True', async () => {
    await cluster.kubectl(['apply', '-n', key.namespace, '-f', 'config/samples/crew_v1_memcached.yaml']);
    const memcached = await waitFor(() => availableWith(1), 'the Memcached to be Available', 180_000);
    assert.equal(memcached.status?.observedGeneration, memcached.metadata?.generation);
    const deployment = await client.get(DeploymentKind, key);
    assert.equal(deployment?.status?.readyReplicas, 1);
    assert.ok(await client.get(ServiceKind, key), 'the Service exists');
  });

  it('serves /metrics to a caller holding the metrics-reader role', async () => {
    const metrics = await cluster.metrics();
    assert.match(metrics, /^controller_runtime_reconcile_total\{controller="memcached"/m);
  });

  it('scales up when spec.replicas grows', async () => {
    const memcached = await client.get(MemcachedKind, key);
    assert.ok(memcached);
    await client.patch(memcached, mergePatch({ spec: { replicas: 2 } }));
    await waitFor(() => availableWith(2), 'the Memcached to be Available with 2 ready replicas');
    assert.equal((await client.get(DeploymentKind, key))?.status?.readyReplicas, 2);
  });

  it('repairs a Deployment edited by hand', async () => {
    const deployment = await client.get(DeploymentKind, key);
    assert.ok(deployment);
    await client.patch(deployment, mergePatch({ spec: { replicas: 5 } }));
    await waitFor(async () => {
      const current = await client.get(DeploymentKind, key);
      return current?.spec?.replicas === 2 ? current : undefined;
    }, 'the manager to set the Deployment back to 2 replicas');
  });

  it('deletes the Deployment and the Service with the Memcached', async () => {
    const memcached = await client.get(MemcachedKind, key);
    assert.ok(memcached);
    await client.delete(memcached);
    await waitFor(
      async () => ((await client.get(MemcachedKind, key)) === undefined ? true : undefined),
      'the Memcached to go once its finalizer ran',
    );
    await waitFor(async () => {
      const [deployment, service] = await Promise.all([
        client.get(DeploymentKind, key),
        client.get(ServiceKind, key),
      ]);
      return deployment === undefined && service === undefined ? true : undefined;
    }, 'the garbage collector to delete the Deployment and the Service');
  });
});
