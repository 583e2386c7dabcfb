import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { EventsV1Event, V1ConfigMap, V1Namespace } from '@kubernetes/client-node';
import type { Json } from '../../../src/runtime/api/json.ts';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { EventKind } from '../../../src/runtime/client/kinds.ts';
import { transportFor, type RestRequest } from '../../../src/runtime/client/transport.ts';
import { metricsRegistry } from '../../../src/runtime/metrics/registry.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { HeldAnswerTransport } from '../../support/held-answers.ts';
import { ApiEventRecorder } from '../../../src/runtime/events/api-event-recorder.ts';
import type { EventRecorderOptions } from '../../../src/runtime/events/event-recorder-options.ts';

const MINUTE = 60_000;

// A full collection on demand, to see whether the recorder still holds objects it was given.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

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

  /** A recorder writing through a transport that holds back the answers of event creates. */
  const heldRecorder = (
    clock: FakeClock,
    options: Partial<EventRecorderOptions> = {},
  ): { events: ApiEventRecorder; held: HeldAnswerTransport } => {
    const held = new HeldAnswerTransport(transportFor(env.kubeConfig));
    return { events: recorder(clock, { client: newClient({ transport: held }), ...options }), held };
  };
  const isEventCreate = (req: RestRequest): boolean => req.method === 'POST' && req.path.includes('/events');

  it('writes an event while an earlier one still waits for its answer', async () => {
    const cm = await subject();
    const namespace = cm.metadata?.namespace ?? '';
    const other = await client.create<V1ConfigMap>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'other', namespace },
    });
    const { events, held } = heldRecorder(new FakeClock(Date.UTC(2026, 5, 1, 10, 0, 0)));
    held.hold(isEventCreate);
    events.event(cm, 'Normal', 'First', 'Reconcile', 'first');
    const [first] = await held.heldCount(1);
    await first?.answered;
    events.event(other, 'Normal', 'Second', 'Reconcile', 'second');
    try {
      await eventuallyTrue(
        async () => (await eventsIn(namespace)).some((e) => e.note === 'second'),
        'the second event to be written while the first is unanswered',
        10_000,
      );
    } finally {
      held.releaseAll();
      await events.flush();
    }
  });

  it('queues at most 1000 events, dropping and counting the rest, and keeps no object it was given', async () => {
    const cm = await subject();
    const namespace = cm.metadata?.namespace ?? '';
    const controller = `bounded-${namespace}`;
    const { events, held } = heldRecorder(new FakeClock(Date.UTC(2026, 5, 1, 10, 0, 0)), {
      reportingController: controller,
    });
    held.hold(isEventCreate, Infinity);
    const droppedBefore = await dropped(controller);
    // 1,100 objects of 20 kB each, one event each (each object has its own rate limit): 8 are
    // being written, their answers held, 1,000 wait, 92 are dropped.
    const recorded = recordAbout(events, namespace, 1100);
    try {
      await eventuallyTrue(() => held.held.length === 8, 'eight writes at once, their answers held', 10_000);
      assert.equal(events.queued, 1000);
      assert.equal((await dropped(controller)) - droppedBefore, 92);
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      const kept = recorded.filter((ref) => ref.deref() !== undefined).length;
      assert.equal(kept, 0, 'objects retained by the recorder after recording');
    } finally {
      held.releaseAll();
      await events.flush();
    }
    assert.equal((await eventsIn(namespace)).length, 1008);
  });

  it('spends no rate limit on events the full queue dropped', async () => {
    const cm = await subject();
    const namespace = cm.metadata?.namespace ?? '';
    const controller = `queue-first-${namespace}`;
    const { events, held } = heldRecorder(new FakeClock(Date.UTC(2026, 5, 1, 10, 0, 0)), {
      reportingController: controller,
      maxQueuedEvents: 10,
      maxConcurrentWrites: 1,
    });
    held.hold(isEventCreate, Infinity);
    const droppedBefore = await dropped(controller);
    // One being written, its answer held, and ten waiting: the queue is full.
    recordAbout(events, namespace, 11);
    await held.heldCount(1);
    // More than the object's burst (25), every one turned away by the full queue.
    for (let i = 0; i < 30; i++) events.event(cm, 'Normal', 'Flood', 'Reconcile', `flood ${i}`);
    assert.equal((await dropped(controller)) - droppedBefore, 30);
    held.releaseAll();
    await events.flush();

    events.event(cm, 'Normal', 'After', 'Reconcile', 'after the queue drained');
    await events.flush();
    const about = (await eventsIn(namespace)).filter((e) => e.regarding?.name === cm.metadata?.name);
    assert.deepEqual(
      about.map((e) => e.note),
      ['after the queue drained'],
    );
  });
});

/** Records one event about each of `count` fresh 20 kB objects; returns weak references to them. */
function recordAbout(events: ApiEventRecorder, namespace: string, count: number): WeakRef<V1ConfigMap>[] {
  const refs: WeakRef<V1ConfigMap>[] = [];
  for (let i = 0; i < count; i++) {
    const object: V1ConfigMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `big-${i}`, namespace, uid: `uid-${i}` },
      data: { payload: 'x'.repeat(20_000) + String(i) },
    };
    events.event(object, 'Normal', 'Big', 'Reconcile', 'a big object');
    refs.push(new WeakRef(object));
  }
  return refs;
}

/** The runtime's count of events of `controller` dropped because the queue was full. */
async function dropped(controller: string): Promise<number> {
  const metric = metricsRegistry.getSingleMetric('events_dropped_total');
  const values = metric ? (await metric.get()).values : [];
  const mine = values.find(
    (v) => v.labels['reporting_controller'] === controller && v.labels['reason'] === 'queue_full',
  );
  return mine?.value ?? 0;
}
