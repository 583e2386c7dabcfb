import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { finalize } from '../../../src/runtime/finalizer/finalize.ts';
import type { Manager } from '../../../src/runtime/manager/manager.ts';
import type { Request } from '../../../src/runtime/reconcile/request.ts';
import { done, requeueAfter, type Result } from '../../../src/runtime/reconcile/result.ts';
import { ItemExponentialFailureRateLimiter } from '../../../src/runtime/workqueue/item-exponential-failure-rate-limiter.ts';
import { eventually } from '../../support/eventually.ts';
import { runInBackground, testManager } from '../controller/support.ts';

const F = 'demo.example.org/cleanup';
const NAMESPACE = 'finalize-requeue';

describe('a controller running finalize', () => {
  let env: Environment;
  let mgr: Manager;
  let stop: () => Promise<void>;
  let cleanups = 0;

  before(async () => {
    env = await startEnvironment();
    mgr = await testManager(env, { namespace: NAMESPACE });
    await mgr.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
    const client = mgr.client;
    mgr
      .controller('finalizing')
      .for(ConfigMapKind)
      .withOptions({ rateLimiter: new ItemExponentialFailureRateLimiter({ baseDelay: 10 }) })
      .complete({
        async reconcile(req: Request): Promise<Result> {
          const cm = await client.get(ConfigMapKind, req);
          if (!cm) return done();
          return finalize(client, cm, F, {
            apply: async () => done(),
            // The first cleanup is not finished yet and asks to be run again at once.
            cleanup: async () => (++cleanups === 1 ? requeueAfter(0) : done()),
          });
        },
      });
    ({ stop } = runInBackground(mgr));
  });
  after(async () => {
    await stop();
    await env.stop();
  });

  it('runs a cleanup that returned requeueAfter(0) again, and the object goes', async () => {
    const cm = await mgr.client.create<V1ConfigMap>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'held', namespace: NAMESPACE },
    });
    const key = { namespace: NAMESPACE, name: 'held' };
    await eventually(
      async () =>
        (await mgr.client.direct().get(ConfigMapKind, key))?.metadata?.finalizers?.includes(F)
          ? true
          : undefined,
      'the finalizer to be added',
    );
    await mgr.client.delete(cm);
    await eventually(
      async () => ((await mgr.client.direct().get(ConfigMapKind, key)) === undefined ? true : undefined),
      'the ConfigMap to be gone after the second cleanup',
      20_000,
    );
    assert.equal(cleanups, 2);
  });
});
