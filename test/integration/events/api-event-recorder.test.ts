import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EventsV1Event, V1ConfigMap, V1Namespace } from '@kubernetes/client-node';
import type { Json } from '../../../src/runtime/api/json.ts';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { EventKind } from '../../../src/runtime/client/kinds.ts';
import { ApiEventRecorder } from '../../../src/runtime/events/api-event-recorder.ts';
import type { EventRecorderOptions } from '../../../src/runtime/events/event-recorder-options.ts';

const MINUTE = 60_000;

describe('ApiEventRecorder on the API server', () => {
  let env: Environment;
  let client: Client;
  let namespaces = 0;

  before(async () => {
    env = await startEnvironment();
    client = newClient({ kubeConfig: env.kubeConfig });
  });
  after(() => env.stop());

  /** A fresh namespace with one ConfigMap in it, so each test reads only its own events. */
  const subject = async (): Promise<Json<V1ConfigMap>> => {
    const namespace = `events-${++namespaces}`;
    await client.create<V1Namespace>({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    return client.create<V1ConfigMap>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace },
    });
  };
  const eventsIn = async (namespace: string | undefined): Promise<Json<EventsV1Event>[]> =>
    (await client.list(EventKind, { namespace: namespace ?? '' })).items.sort((a, b) =>
      (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
    );
  const recorder = (clock: FakeClock, options: Partial<EventRecorderOptions> = {}): ApiEventRecorder =>
    new ApiEventRecorder({
      client,
      reportingController: 'demo.example.org/webapp',
      reportingInstance: 'test-0',
      clock,
      ...options,
    });

  it('writes an events.k8s.io/v1 Event about the object', async () => {
    const cm = await subject();
    const clock = new FakeClock(Date.UTC(2026, 5, 1, 10, 0, 0, 123));
    const events = recorder(clock);
    events.event(cm, 'Warning', 'InvalidSpec', 'Validate', 'replicas must be positive');
    await events.flush();

    const [event, ...more] = await eventsIn(cm.metadata?.namespace);
    assert.deepEqual(more, []);
    assert.ok(event);
    assert.deepEqual(
      {
        type: event.type,
        reason: event.reason,
        action: event.action,
        note: event.note,
        reportingController: event.reportingController,
        reportingInstance: event.reportingInstance,
        eventTime: event.eventTime,
        series: event.series,
      },
      {
        type: 'Warning',
        reason: 'InvalidSpec',
        action: 'Validate',
        note: 'replicas must be positive',
        reportingController: 'demo.example.org/webapp',
        reportingInstance: 'test-0',
        eventTime: '2026-06-01T10:00:00.123000Z',
        series: undefined,
      },
    );
    assert.deepEqual(event.regarding, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'settings',
      namespace: cm.metadata?.namespace,
      uid: cm.metadata?.uid,
      resourceVersion: cm.metadata?.resourceVersion,
    });
  });

  it('folds repeats within the series window into one event, counting them', async () => {
    const cm = await subject();
    const clock = new FakeClock(Date.UTC(2026, 5, 1, 10, 0, 0));
    const events = recorder(clock);
    for (let i = 0; i < 4; i++) {
      events.event(cm, 'Normal', 'Waiting', 'Reconcile', 'waiting for pods');
      clock.advance(MINUTE);
    }
    events.event(cm, 'Normal', 'Waiting', 'Reconcile', 'a different note');
    await events.flush();

    const written = await eventsIn(cm.metadata?.namespace);
    assert.deepEqual(
      written.map((e) => [e.note, e.series?.count, e.series?.lastObservedTime]),
      [
        ['waiting for pods', 4, '2026-06-01T10:03:00.000000Z'],
        ['a different note', undefined, undefined],
      ],
    );
  });

  it('starts a new event once the series window has passed', async () => {
    const cm = await subject();
    const clock = new FakeClock(Date.UTC(2026, 5, 1, 10, 0, 0));
    const events = recorder(clock, { seriesWindow: 5 * MINUTE });
    events.event(cm, 'Normal', 'Synced', 'Reconcile', 'in sync');
    clock.advance(5 * MINUTE + 1);
    events.event(cm, 'Normal', 'Synced', 'Reconcile', 'in sync');
    await events.flush();
    assert.equal((await eventsIn(cm.metadata?.namespace)).length, 2);
  });

  it('drops events about one object beyond its burst until the bucket refills, sparing other objects', async () => {
    const cm = await subject();
    const other = await client.create<V1ConfigMap>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'other', namespace: cm.metadata?.namespace ?? '' },
    });
    const clock = new FakeClock(Date.UTC(2026, 5, 1, 10, 0, 0));
    const events = recorder(clock, { burst: 2, refillInterval: 10 * MINUTE });
    for (const note of ['one', 'two', 'three']) events.event(cm, 'Normal', 'Step', 'Reconcile', note);
    events.event(other, 'Normal', 'Step', 'Reconcile', 'other one');
    clock.advance(10 * MINUTE);
    events.event(cm, 'Normal', 'Step', 'Reconcile', 'four');
    await events.flush();

    const notes = (await eventsIn(cm.metadata?.namespace)).map((e) => e.note).sort();
    assert.deepEqual(notes, ['four', 'one', 'other one', 'two']);
  });

  it('names the related object, and keeps events about it apart from events without it', async () => {
    const cm = await subject();
    const relatedMap = await client.create<V1ConfigMap>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'related', namespace: cm.metadata?.namespace ?? '' },
    });
    const events = recorder(new FakeClock(Date.UTC(2026, 5, 1, 10, 0, 0)));
    events.event(cm, 'Normal', 'Linked', 'Link', 'linked', relatedMap);
    events.event(cm, 'Normal', 'Linked', 'Link', 'linked');
    await events.flush();
    const written = (await eventsIn(cm.metadata?.namespace)).filter((e) => e.regarding?.name === 'settings');
    assert.deepEqual(written.map((e) => e.related?.name).sort(), ['related', undefined]);
  });

  it('writes events about cluster-scoped objects into default', async () => {
    const ns = await client.create<V1Namespace>({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'cluster-scoped-subject' },
    });
    const events = recorder(new FakeClock(Date.UTC(2026, 5, 1, 10, 0, 0)));
    events.event(ns, 'Normal', 'Adopted', 'Adopt', 'namespace adopted');
    await events.flush();
    const written = (await eventsIn('default')).filter((e) => e.regarding?.name === 'cluster-scoped-subject');
    assert.deepEqual(
      written.map((e) => [e.regarding?.kind, e.note]),
      [['Namespace', 'namespace adopted']],
    );
  });
});
