import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { V1Job, V1Pod } from '@kubernetes/client-node';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import type { Json, JsonInput } from '../../../src/runtime/api/json.ts';
import type { Condition, ObjectMeta, Time } from '../../../src/runtime/api/types.ts';
import { newCache, type Cache } from '../../../src/runtime/cache/cache.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { defineKind } from '../../../src/runtime/client/kind.ts';
import { JobKind, NamespaceKind, PodKind, ServiceAccountKind } from '../../../src/runtime/client/kinds.ts';
import { createOrPatch, createOrUpdate } from '../../../src/runtime/controllerutil/create-or-update.ts';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { setCondition } from '../../../src/runtime/conditions/object-conditions.ts';
import { eventuallyTrue } from '../../support/eventually.ts';

/** A CRD as `create api` types it: its timestamps are the runtime's `Time` and `Condition`. */
interface Timer {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: { schedule?: string };
  status?: { lastFired?: Time; conditions?: Condition[] };
}
const TimerKind = defineKind<Timer>({
  apiVersion: 'test.tsoperator.dev/v1',
  kind: 'Timer',
  plural: 'timers',
  namespaced: true,
});

const CRDS = [new URL('./testdata/timers.yaml', import.meta.url).pathname];
const NAMESPACE = 'timestamps';
const SECOND = 1000;

// client-node's models type timestamps as Date; the API server sends RFC 3339 strings, and the
// runtime hands them on as such. Reads are typed `Json<T>` (strings), so the parsing below is what
// the compiler asks for; writes take a Date, sent as metav1.Time (to the second).
describe('timestamps on a real API server', () => {
  let env: Environment;
  let client: Client;
  let cache: Cache;
  let cached: Client;
  const stop = new AbortController();

  before(async () => {
    env = await startEnvironment({ crdPaths: CRDS });
    client = newClient({ kubeConfig: env.kubeConfig });
    await client.create({
      apiVersion: NamespaceKind.apiVersion,
      kind: NamespaceKind.kind,
      metadata: { name: NAMESPACE },
    });
    cache = newCache({ kubeConfig: env.kubeConfig, namespaces: [NAMESPACE] });
    cached = newClient({ kubeConfig: env.kubeConfig, cache });
  });
  after(async () => {
    stop.abort();
    await env.stop();
  });

  it('reads a Job’s timestamps as strings, from the API server, the cache and an informer', async () => {
    const seen: Json<V1Job>[] = [];
    cache.informerFor(JobKind).addEventHandler({ onAdd: (job) => seen.push(job) });
    cache.start(stop.signal);
    const job: V1Job = {
      apiVersion: JobKind.apiVersion,
      kind: JobKind.kind,
      metadata: { name: 'nightly', namespace: NAMESPACE },
      spec: {
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } },
      },
    };
    const before = Math.floor(Date.now() / SECOND) * SECOND;
    const created = await client.create(job);
    const after = Date.now();
    // No Job controller runs here: the test sets the status as kube-controller-manager would.
    const started = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
    await client.status().patch(created, mergePatch({ status: { startTime: started } }));

    const key = { namespace: NAMESPACE, name: 'nightly' };
    const read = await client.get(JobKind, key);
    assert.ok(read?.metadata?.creationTimestamp);
    assert.equal(typeof read.metadata.creationTimestamp, 'string');
    const createdAt = Date.parse(read.metadata.creationTimestamp);
    assert.ok(createdAt >= before && createdAt <= after, `created at ${read.metadata.creationTimestamp}`);
    assert.equal(read.status?.startTime, '2026-01-02T03:04:05Z', 'a Date is written to the second');
    assert.equal(new Date(read.status.startTime).getTime(), Date.UTC(2026, 0, 2, 3, 4, 5));
    assert.equal(typeof read.metadata.managedFields?.[0]?.time, 'string');

    const fromCache = await cached.get(JobKind, key);
    assert.equal(fromCache?.metadata?.creationTimestamp, read.metadata.creationTimestamp);
    assert.equal(fromCache?.status?.startTime, read.status.startTime);
    await eventuallyTrue(() => seen.length > 0, 'the informer to deliver the Job');
    assert.equal(typeof seen[0]?.metadata?.creationTimestamp, 'string');
  });

  it('writes Dates into a CRD’s Time field and conditions, which read back as the strings they became', async () => {
    const timer = await client.create<Timer>({
      apiVersion: TimerKind.apiVersion,
      kind: TimerKind.kind,
      metadata: { name: 'every-minute', namespace: NAMESPACE },
      spec: { schedule: '* * * * *' },
    });
    const fired = new Date(Date.UTC(2026, 5, 7, 8, 9, 10, 999));
    setCondition(timer, { type: 'Fired', status: 'True', reason: 'OnTime', lastTransitionTime: fired });
    assert.equal(timer.status?.conditions?.[0]?.lastTransitionTime, '2026-06-07T08:09:10Z');
    setCondition(timer, { type: 'Late', status: 'False', reason: 'OnTime' });

    const written = await client.status().update({ ...timer, status: { ...timer.status, lastFired: fired } });
    assert.equal(written.status?.lastFired, '2026-06-07T08:09:10Z');
    // What setCondition keeps in memory is what the API server stores: nothing to write again.
    assert.deepEqual(written.status?.conditions, timer.status?.conditions);
    assert.equal(setCondition(written, { type: 'Late', status: 'False', reason: 'OnTime' }), false);

    const key = { namespace: NAMESPACE, name: 'every-minute' };
    const read = await cached.get(TimerKind, key);
    assert.deepEqual(read?.status, written.status);
    const lastFired = read?.status?.lastFired;
    assert.ok(lastFired !== undefined && Date.parse(lastFired) === Date.UTC(2026, 5, 7, 8, 9, 10));
  });

  // A client-node model's Date standing for the time the object holds is no change: createOrPatch
  // and createOrUpdate compare it as the API server would store it, and write nothing.
  it('createOrPatch and createOrUpdate write nothing for a Date equal to the stored time', async () => {
    const key = { namespace: NAMESPACE, name: 'started' };
    // Pods are admitted once their namespace has a service account; no controller makes it here.
    await client.create({
      apiVersion: ServiceAccountKind.apiVersion,
      kind: ServiceAccountKind.kind,
      metadata: { namespace: NAMESPACE, name: 'default' },
    });
    await client.create({
      apiVersion: PodKind.apiVersion,
      kind: PodKind.kind,
      metadata: key,
      spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
    });
    const started = new Date(Date.UTC(2026, 5, 7, 8, 9, 10, 250));
    const setStart = (pod: JsonInput<V1Pod>): void => {
      pod.status = { ...pod.status, startTime: started };
    };

    assert.equal((await createOrPatch(client, PodKind, key, setStart)).operation, 'updatedStatusOnly');
    const stored = await client.get(PodKind, key);
    assert.equal(stored?.status?.startTime, '2026-06-07T08:09:10Z');

    assert.equal((await createOrPatch(client, PodKind, key, setStart)).operation, 'unchanged');
    assert.equal((await createOrUpdate(client, PodKind, key, setStart)).operation, 'unchanged');
    assert.equal(
      (await client.get(PodKind, key))?.metadata?.resourceVersion,
      stored?.metadata?.resourceVersion,
    );
  });
});
