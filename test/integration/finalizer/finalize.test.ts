import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { V1ConfigMap } from '@kubernetes/client-node';
import type { Json } from '../../../src/runtime/api/json.ts';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { ConfigMapKind, EventKind } from '../../../src/runtime/client/kinds.ts';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { ApiEventRecorder } from '../../../src/runtime/events/api-event-recorder.ts';
import { finalize } from '../../../src/runtime/finalizer/finalize.ts';
import { done, requeue, requeueAfter, type Result } from '../../../src/runtime/reconcile/result.ts';

const F = 'demo.example.org/cleanup';

describe('finalize on the API server', () => {
  let env: Environment;
  let client: Client;
  let objects = 0;

  before(async () => {
    env = await startEnvironment();
    client = newClient({ kubeConfig: env.kubeConfig });
  });
  after(() => env.stop());

  const live = (): Promise<Json<V1ConfigMap>> =>
    client.create<V1ConfigMap>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `cm-${++objects}`, namespace: 'default' },
    });
  const read = (cm: Json<V1ConfigMap>): Promise<Json<V1ConfigMap> | undefined> =>
    client.direct().get(ConfigMapKind, { namespace: 'default', name: cm.metadata?.name ?? '' });

  /** Counts the calls of each step; cleanup answers with `cleanupResult`. */
  const steps = (cleanupResult: () => Promise<Result> = async () => done()) => {
    const calls = { apply: 0, cleanup: 0 };
    return {
      calls,
      apply: async () => {
        calls.apply++;
        return done();
      },
      cleanup: async () => {
        calls.cleanup++;
        return cleanupResult();
      },
    };
  };

  /** Adds the finalizer through finalize, deletes the object, and returns it as read back. */
  const terminating = async (): Promise<Json<V1ConfigMap>> => {
    const cm = await live();
    await finalize(client, cm, F, steps());
    await client.delete(cm);
    const stored = await read(cm);
    assert.ok(stored?.metadata?.deletionTimestamp);
    return stored;
  };

  it('adds the finalizer before apply runs, and only apply runs while the object lives', async () => {
    const cm = await live();
    const s = steps();
    assert.deepEqual(await finalize(client, cm, F, s), done());
    assert.deepEqual((await read(cm))?.metadata?.finalizers, [F]);
    assert.deepEqual(cm.metadata?.finalizers, [F]);
    assert.equal(cm.metadata?.resourceVersion, (await read(cm))?.metadata?.resourceVersion);
    await finalize(client, cm, F, s);
    assert.deepEqual(s.calls, { apply: 2, cleanup: 0 });
  });

  it('on deletion runs cleanup once, removes the finalizer, and the object disappears', async () => {
    const cm = await terminating();
    const s = steps();
    assert.deepEqual(await finalize(client, cm, F, s), done());
    assert.deepEqual(s.calls, { apply: 0, cleanup: 1 });
    assert.equal(await read(cm), undefined);
  });

  it('removes the finalizer even when the object changed since it was read', async () => {
    const stale = await terminating();
    const fresh = await read(stale);
    assert.ok(fresh);
    await client.update({ ...fresh, metadata: { ...fresh.metadata, labels: { touched: 'yes' } } });
    const s = steps();
    await finalize(client, stale, F, s);
    assert.deepEqual(s.calls, { apply: 0, cleanup: 1 });
    assert.equal(await read(stale), undefined);
  });

  it('keeps other finalizers', async () => {
    const cm = await client.create<V1ConfigMap>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `cm-${++objects}`, namespace: 'default', finalizers: ['other.example.org/keep', F] },
    });
    await client.delete(cm);
    const stored = await read(cm);
    assert.ok(stored);
    await finalize(client, stored, F, steps());
    assert.deepEqual((await read(cm))?.metadata?.finalizers, ['other.example.org/keep']);
    const left = await read(cm);
    assert.ok(left);
    await client.update({ ...left, metadata: { ...left.metadata, finalizers: [] } });
  });

  it('keeps the finalizer while cleanup asks to requeue, and returns its result', async () => {
    const cm = await terminating();
    assert.deepEqual(
      await finalize(
        client,
        cm,
        F,
        steps(async () => requeueAfter(5000)),
      ),
      requeueAfter(5000),
    );
    assert.deepEqual((await read(cm))?.metadata?.finalizers, [F]);
    await finalize(client, cm, F, steps());
    assert.equal(await read(cm), undefined);
  });

  it('keeps the finalizer when cleanup asks for requeueAfter(0), and answers requeue() for it', async () => {
    const cm = await terminating();
    const result = await finalize(
      client,
      cm,
      F,
      steps(async () => requeueAfter(0)),
    );
    assert.deepEqual(result, requeue(), 'a requeue "now" is spelled as one every reader requeues');
    assert.deepEqual((await read(cm))?.metadata?.finalizers, [F]);
    await finalize(client, cm, F, steps());
    assert.equal(await read(cm), undefined);
  });

  it('keeps the finalizer when cleanup fails, rethrows, and reports a Warning event', async () => {
    const cm = await terminating();
    const recorder = new ApiEventRecorder({ client, reportingController: 'test', clock: new FakeClock() });
    const failing = { ...steps(async () => Promise.reject(new Error('bucket is locked'))), recorder };
    await assert.rejects(finalize(client, cm, F, failing), /bucket is locked/);
    await recorder.flush();
    assert.deepEqual((await read(cm))?.metadata?.finalizers, [F]);
    const events = (await client.list(EventKind, { namespace: 'default' })).items.filter(
      (e) => e.regarding?.uid === cm.metadata?.uid,
    );
    assert.deepEqual(
      events.map((e) => [e.type, e.reason, e.note]),
      [['Warning', 'CleanupFailed', 'cleanup failed: bucket is locked']],
    );
    await finalize(client, cm, F, steps());
    assert.equal(await read(cm), undefined);
  });

  it('does nothing on deletion when its finalizer is not there', async () => {
    const cm = await live();
    const deleting: Json<V1ConfigMap> = {
      ...cm,
      metadata: { ...cm.metadata, deletionTimestamp: new Date().toISOString() },
    };
    const s = steps();
    assert.deepEqual(await finalize(client, deleting, F, s), done());
    assert.deepEqual(s.calls, { apply: 0, cleanup: 0 });
  });
});
