import assert from 'node:assert/strict';
import { isConflict } from '../../../src/runtime/client/api-error.ts';
import type { V1Lease } from '@kubernetes/client-node';
import type { Json } from '../../../src/runtime/api/json.ts';
import { describe, it } from 'node:test';
import { LeaseKind } from '../../../src/runtime/client/kinds.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { defineKind } from '../../../src/runtime/client/kind.ts';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import { HashRing } from '../../../src/runtime/sharding/hash-ring.ts';
import { ringKeyOf } from '../../../src/runtime/sharding/ring-key.ts';
import { drainLabel, SHARDER_IDENTITY, shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { runOnTickingClock, shardLease, ThrottledTransport, widgetSharder } from './fake-clock-sharder.ts';
import { ringEnvironment } from './ring-environment.ts';

const NAMESPACE = 'held';
const LEASE_DURATION = 4000;

defineKind({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  plural: 'validatingadmissionpolicies',
  namespaced: false,
});
defineKind({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  plural: 'validatingadmissionpolicybindings',
  namespaced: false,
});

describe("the sharder's moves of a gone shard's objects", () => {
  const api = ringEnvironment(NAMESPACE);

  it('are not sent after half the hold of its Lease, however long the write was held back', async () => {
    const RING = 'held';
    const SHARD = shardLabel(RING);
    const clock = new FakeClock(Date.now());
    await api.client.create(shardLease(clock, NAMESPACE, RING, 'live', 'live', 3600));
    // Released by a shard that stopped: the sharder holds it before it moves the objects.
    await api.client.create(shardLease(clock, NAMESPACE, RING, 'gone', '', 1));
    await api.client.create({
      apiVersion: WidgetKind.apiVersion,
      kind: WidgetKind.kind,
      metadata: { name: 'w', namespace: NAMESPACE, labels: { [SHARD]: 'gone' } },
      spec: { size: 1 },
    });
    const transport = new ThrottledTransport(transportFor(api.env.kubeConfig), clock);
    transport.throttle = LEASE_DURATION;
    const sharder = widgetSharder(NAMESPACE, RING, transport, clock, LEASE_DURATION);
    const running = runOnTickingClock(sharder, clock);
    try {
      const widget = async (): Promise<string | undefined> =>
        (await api.client.direct().get(WidgetKind, { namespace: NAMESPACE, name: 'w' }))?.metadata?.labels?.[
          SHARD
        ];
      const held = async (): Promise<boolean> =>
        (await api.client.direct().get(LeaseKind, { namespace: NAMESPACE, name: 'gone' }))?.spec
          ?.holderIdentity === SHARDER_IDENTITY;
      await eventuallyTrue(held, 'the sharder holding the gone shard’s Lease');
      const heldAt = clock.monotonic();
      await eventuallyTrue(() => clock.monotonic() - heldAt > 3 * LEASE_DURATION, 'three lease durations');
      assert.equal(transport.sent, 0, 'a move sent after half the hold of the Lease');
      assert.equal(await widget(), 'gone');

      transport.throttle = LEASE_DURATION / 4;
      await eventuallyTrue(async () => (await widget()) === 'live', 'the Widget moved to the live shard');
    } finally {
      await running.stop();
    }
  });

  it('keeps moving a list that outlives many holds of the Lease: no pause, no move given up, no gap', async () => {
    const RING = 'long';
    const SHARD = shardLabel(RING);
    const WIDGETS = 30;
    // Long enough that the API server's answers, in real time on a clock ten times as fast, take
    // little of a hold.
    const duration = 40_000;
    const clock = new FakeClock(Date.now());
    await api.client.create(shardLease(clock, NAMESPACE, RING, 'alive', 'alive', 3600));
    await api.client.create(shardLease(clock, NAMESPACE, RING, 'left', '', 1));
    for (let i = 0; i < WIDGETS; i++)
      await api.client.create({
        apiVersion: WidgetKind.apiVersion,
        kind: WidgetKind.kind,
        metadata: { name: `long-${i}`, namespace: NAMESPACE, labels: { [SHARD]: 'left' } },
        spec: { size: 1 },
      });
    const transport = new ThrottledTransport(transportFor(api.env.kubeConfig), clock);
    // Eight writes a lease duration, one at a time: the list takes about four lease durations, and
    // a half-hold ends while a write waits its turn.
    const throttle = duration / 8;
    transport.throttle = throttle;
    const running = runOnTickingClock(widgetSharder(NAMESPACE, RING, transport, clock, duration), clock);
    try {
      await eventuallyTrue(async () => {
        const widgets = await api.client.direct().listAll(WidgetKind, {
          namespace: NAMESPACE,
          labelSelector: `${SHARD}=alive`,
        });
        return widgets.length === WIDGETS;
      }, 'every Widget moved to shard alive');
      const sent = transport.sentAt;
      const span = (sent.at(-1) ?? 0) - (sent[0] ?? 0);
      assert.ok(span > 2 * duration, `the list outlived several takeovers (took ${span} ms)`);
      assert.equal(transport.abandoned, 0, 'moves given up at the end of a half-hold');
      const gaps = sent.slice(1).map((at, i) => at - (sent[i] ?? at));
      // Each write waits its throttle; half of one more is the real time the test's clock runs on.
      assert.ok(
        Math.max(...gaps) < 1.5 * throttle,
        `a gap between moves: the longest was ${Math.max(...gaps)} ms (each write waits ${throttle} ms)`,
      );
    } finally {
      await running.stop();
    }
  });

  it('lets a gone shard back after a few takeovers while one of its objects cannot be moved', async () => {
    const RING = 'stuck';
    const SHARD = shardLabel(RING);
    const clock = new FakeClock(Date.now());
    // An admission that refuses to move Widget "stuck" off its shard.
    await api.client.create({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'stuck-widget' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [
            {
              apiGroups: [WidgetKind.group],
              apiVersions: ['*'],
              operations: ['UPDATE'],
              resources: [WidgetKind.plural],
            },
          ],
        },
        validations: [
          {
            expression: `object.metadata.name != 'stuck' || object.metadata.labels['${SHARD}'] == oldObject.metadata.labels['${SHARD}']`,
            message: 'Widget stuck stays on its shard',
          },
        ],
      },
    });
    await api.client.create({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'stuck-widget' },
      spec: { policyName: 'stuck-widget', validationActions: ['Deny'] },
    });
    const stuck = await api.client.create({
      apiVersion: WidgetKind.apiVersion,
      kind: WidgetKind.kind,
      metadata: { name: 'stuck', namespace: NAMESPACE, labels: { [SHARD]: 'back' } },
      spec: { size: 1 },
    });
    await eventuallyTrue(async () => {
      const moved = await api.client
        .patch(stuck, mergePatch({ metadata: { labels: { [SHARD]: 'elsewhere' } } }), { dryRun: true })
        .then(
          () => true,
          () => false,
        );
      return !moved;
    }, 'the admission policy in force');
    await api.client.create(shardLease(clock, NAMESPACE, RING, 'present', 'present', 3600));
    await api.client.create(shardLease(clock, NAMESPACE, RING, 'back', '', 1));
    const lease = (): Promise<Json<V1Lease> | undefined> =>
      api.client.direct().get(LeaseKind, { namespace: NAMESPACE, name: 'back' });
    const transport = new ThrottledTransport(transportFor(api.env.kubeConfig), clock);
    const sharder = widgetSharder(NAMESPACE, RING, transport, clock, LEASE_DURATION);
    const running = runOnTickingClock(sharder, clock);
    try {
      await eventuallyTrue(
        async () => (await lease())?.spec?.holderIdentity === SHARDER_IDENTITY,
        'the sharder holding shard back’s Lease',
      );
      await eventuallyTrue(async () => {
        const spec = (await lease())?.spec;
        const expiry = new Date(String(spec?.renewTime)).getTime() + (spec?.leaseDurationSeconds ?? 0) * 1000;
        return clock.now() > expiry;
      }, 'the sharder letting shard back’s Lease expire');
      // Shard back takes its Lease again, as its elector does once the Lease expired: read again
      // and retried when the sharder wrote it meanwhile (its state label), as an elector retries.
      await eventuallyTrue(async () => {
        const expired = await lease();
        const spec = expired?.spec;
        const expiry = new Date(String(spec?.renewTime)).getTime() + (spec?.leaseDurationSeconds ?? 0) * 1000;
        assert.ok(expired && clock.now() > expiry, 'the sharder took shard back’s Lease again');
        return api.client
          .update({
            ...expired,
            ...shardLease(clock, NAMESPACE, RING, 'back', 'back', 3600),
            metadata: expired.metadata,
          })
          .then(
            () => true,
            (err: unknown) => {
              if (isConflict(err)) return false;
              throw err;
            },
          );
      }, 'shard back to take its Lease again');
      const backAt = clock.monotonic();
      await eventuallyTrue(() => clock.monotonic() - backAt > 3 * LEASE_DURATION, 'three lease durations');
      assert.equal((await lease())?.spec?.holderIdentity, 'back', 'the shard kept out after it came back');
      const widget = await api.client.direct().get(WidgetKind, { namespace: NAMESPACE, name: 'stuck' });
      const desired = new HashRing(['back', 'present']).shardFor(ringKeyOf(WidgetKind, stuck));
      assert.equal(widget?.metadata?.labels?.[SHARD], 'back');
      if (desired === 'present')
        assert.equal(widget?.metadata?.labels?.[drainLabel(RING)], 'true', 'Widget stuck drained');
    } finally {
      await running.stop();
    }
  });

  it('are made by a follow-up resync when one was labelled for the shard after the resync on its death listed', async () => {
    const RING = 'late';
    const SHARD = shardLabel(RING);
    const clock = new FakeClock(Date.now());
    await api.client.create(shardLease(clock, NAMESPACE, RING, 'staying', 'staying', 3600));
    await api.client.create(shardLease(clock, NAMESPACE, RING, 'died', '', 1));
    const transport = new ThrottledTransport(transportFor(api.env.kubeConfig), clock);
    let created = false;
    // As a replica whose Lease watch lags would have its webhook label it, after the list.
    transport.afterList = async () => {
      await api.client.create({
        apiVersion: WidgetKind.apiVersion,
        kind: WidgetKind.kind,
        metadata: { name: 'late', namespace: NAMESPACE, labels: { [SHARD]: 'died' } },
        spec: { size: 1 },
      });
      created = true;
    };
    const running = runOnTickingClock(
      widgetSharder(NAMESPACE, RING, transport, clock, LEASE_DURATION),
      clock,
    );
    try {
      await eventuallyTrue(() => created, 'Widget late created after the resync listed');
      const createdAt = clock.monotonic();
      await eventuallyTrue(
        async () =>
          (await api.client.direct().get(WidgetKind, { namespace: NAMESPACE, name: 'late' }))?.metadata
            ?.labels?.[SHARD] === 'staying',
        'Widget late moved to the live shard',
        20_000,
      );
      assert.ok(clock.monotonic() - createdAt < 600_000, 'moved before the periodic resync');
    } finally {
      await running.stop();
    }
  });

  it('moves again a second after a move lost a race, not a retry period later', async () => {
    const RING = 'raced';
    const SHARD = shardLabel(RING);
    const retryPeriod = 30_000;
    const clock = new FakeClock(Date.now());
    await api.client.create(shardLease(clock, NAMESPACE, RING, 'remaining', 'remaining', 3600));
    // Shard lost has no Lease: its objects are found by the list of the whole ring only.
    const widget = await api.client.create({
      apiVersion: WidgetKind.apiVersion,
      kind: WidgetKind.kind,
      metadata: { name: 'raced', namespace: NAMESPACE, labels: { [SHARD]: 'lost' } },
      spec: { size: 1 },
    });
    const transport = new ThrottledTransport(transportFor(api.env.kubeConfig), clock);
    let changedAt: number | undefined;
    // A change after the resync listed: the move, sent with the resourceVersion listed, conflicts.
    transport.afterList = async () => {
      await api.client.patch(widget, mergePatch({ spec: { size: 2 } }));
      changedAt = clock.monotonic();
    };
    const running = runOnTickingClock(
      widgetSharder(NAMESPACE, RING, transport, clock, LEASE_DURATION, retryPeriod),
      clock,
    );
    try {
      await eventuallyTrue(
        async () =>
          (await api.client.direct().get(WidgetKind, { namespace: NAMESPACE, name: 'raced' }))?.metadata
            ?.labels?.[SHARD] === 'remaining',
        'Widget raced moved to the live shard',
        20_000,
      );
      assert.ok(changedAt !== undefined, 'the Widget changed after the list');
      const took = clock.monotonic() - changedAt;
      assert.ok(took < retryPeriod / 2, `moved ${took} ms after the race (retry period ${retryPeriod} ms)`);
    } finally {
      await running.stop();
    }
  });

  it('start without waiting for a list of the whole ring', async () => {
    const RING = 'first';
    const SHARD = shardLabel(RING);
    const clock = new FakeClock(Date.now());
    await api.client.create(shardLease(clock, NAMESPACE, RING, 'up', 'up', 3600));
    await api.client.create(shardLease(clock, NAMESPACE, RING, 'down', '', 1));
    for (const [name, shard] of [
      ['on-down', 'down'],
      ['on-up', 'up'],
    ] as const)
      await api.client.create({
        apiVersion: WidgetKind.apiVersion,
        kind: WidgetKind.kind,
        metadata: { name, namespace: NAMESPACE, labels: { [SHARD]: shard } },
        spec: { size: 1 },
      });
    const transport = new ThrottledTransport(transportFor(api.env.kubeConfig), clock);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let listed = false;
    // A list of every Widget of the ring is answered only once the test lets it.
    transport.afterList = async () => {
      listed = true;
      await held;
    };
    const running = runOnTickingClock(
      widgetSharder(NAMESPACE, RING, transport, clock, LEASE_DURATION),
      clock,
    );
    try {
      await eventuallyTrue(
        async () =>
          (await api.client.direct().get(WidgetKind, { namespace: NAMESPACE, name: 'on-down' }))?.metadata
            ?.labels?.[SHARD] === 'up',
        'the gone shard’s Widget moved while the list of the whole ring is held back',
      );
      assert.equal(listed, true, 'the whole ring listed after the moves');
    } finally {
      release();
      await running.stop();
    }
  });

  it('start while a list of the whole ring for a resync before the death is still under way', async () => {
    const RING = 'busy';
    const SHARD = shardLabel(RING);
    const clock = new FakeClock(Date.now());
    await api.client.create(shardLease(clock, NAMESPACE, RING, 'stays', 'stays', 3600));
    await api.client.create(shardLease(clock, NAMESPACE, RING, 'goes', 'goes', 3600));
    await api.client.create({
      apiVersion: WidgetKind.apiVersion,
      kind: WidgetKind.kind,
      metadata: { name: 'on-goes', namespace: NAMESPACE, labels: { [SHARD]: 'goes' } },
      spec: { size: 1 },
    });
    const transport = new ThrottledTransport(transportFor(api.env.kubeConfig), clock);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let listing = false;
    // The resync of the first ring lists the whole ring for as long as the test lets it.
    transport.afterList = async () => {
      listing = true;
      await held;
    };
    const running = runOnTickingClock(
      widgetSharder(NAMESPACE, RING, transport, clock, LEASE_DURATION),
      clock,
    );
    try {
      await eventuallyTrue(() => listing, 'the resync of the first ring listing');
      // Shard goes stops: its Lease released, as a shard sent SIGTERM leaves it.
      const lease = await api.client.direct().get(LeaseKind, { namespace: NAMESPACE, name: 'goes' });
      assert.ok(lease);
      await api.client.update({
        ...lease,
        spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1 },
      });
      await eventuallyTrue(
        async () =>
          (await api.client.direct().get(WidgetKind, { namespace: NAMESPACE, name: 'on-goes' }))?.metadata
            ?.labels?.[SHARD] === 'stays',
        'the stopped shard’s Widget moved while the list of the resync before is held back',
        20_000,
      );
    } finally {
      release();
      await running.stop();
    }
  });
});
