import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Condition } from '../../../src/runtime/api/types.ts';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import {
  findStatusCondition,
  isStatusConditionFalse,
  isStatusConditionTrue,
  removeStatusCondition,
  setStatusCondition,
} from '../../../src/runtime/conditions/conditions.ts';
import {
  setCondition,
  type ObjectWithConditions,
} from '../../../src/runtime/conditions/object-conditions.ts';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
/** `ms` as metav1.Time writes it, and as conditions hold it: RFC 3339 to the second. */
const at = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

describe('setStatusCondition', () => {
  it('adds a new condition stamped with the clock, to the second', () => {
    const clock = new FakeClock(T0 + 750);
    const conditions: Condition[] = [];
    assert.equal(
      setStatusCondition(conditions, { type: 'Ready', status: 'False', reason: 'Starting' }, clock),
      true,
    );
    assert.deepEqual(conditions, [
      { type: 'Ready', status: 'False', reason: 'Starting', message: '', lastTransitionTime: at(T0) },
    ]);
  });

  // metav1's zero time: meta.SetStatusCondition stamps such a condition with now.
  it('stamps a condition given an empty lastTransitionTime with the clock', () => {
    const conditions: Condition[] = [];
    const clock = new FakeClock(T0);
    setStatusCondition(
      conditions,
      { type: 'Ready', status: 'True', reason: 'Up', lastTransitionTime: '' },
      clock,
    );
    assert.equal(findStatusCondition(conditions, 'Ready')?.lastTransitionTime, at(T0));
  });

  it('keeps lastTransitionTime while the status stays, and updates reason, message and observedGeneration', () => {
    const clock = new FakeClock(T0);
    const conditions: Condition[] = [];
    setStatusCondition(
      conditions,
      { type: 'Ready', status: 'False', reason: 'Starting', observedGeneration: 1 },
      clock,
    );
    clock.advance(60_000);
    const changed = setStatusCondition(
      conditions,
      { type: 'Ready', status: 'False', reason: 'Waiting', message: 'pods pending', observedGeneration: 2 },
      clock,
    );
    assert.equal(changed, true);
    assert.deepEqual(conditions, [
      {
        type: 'Ready',
        status: 'False',
        reason: 'Waiting',
        message: 'pods pending',
        observedGeneration: 2,
        lastTransitionTime: at(T0),
      },
    ]);
  });

  it('moves lastTransitionTime when the status changes', () => {
    const clock = new FakeClock(T0);
    const conditions: Condition[] = [];
    setStatusCondition(conditions, { type: 'Ready', status: 'False', reason: 'Starting' }, clock);
    clock.advance(30_000);
    setStatusCondition(conditions, { type: 'Ready', status: 'True', reason: 'Started' }, clock);
    assert.deepEqual(findStatusCondition(conditions, 'Ready')?.lastTransitionTime, at(T0 + 30_000));
  });

  it('reports no change when the same condition is set again', () => {
    const clock = new FakeClock(T0);
    const conditions: Condition[] = [];
    const condition = {
      type: 'Ready',
      status: 'True',
      reason: 'Started',
      message: 'm',
      observedGeneration: 3,
    } as const;
    setStatusCondition(conditions, condition, clock);
    clock.advance(5_000);
    assert.equal(setStatusCondition(conditions, condition, clock), false);
    assert.deepEqual(conditions[0]?.lastTransitionTime, at(T0));
  });

  it('takes an explicit lastTransitionTime: a Date is written as metav1.Time, to the second', () => {
    const conditions: Condition[] = [];
    setStatusCondition(conditions, {
      type: 'Ready',
      status: 'True',
      reason: 'Started',
      lastTransitionTime: new Date(T0 - 3_600_000 + 250),
    });
    assert.equal(conditions[0]?.lastTransitionTime, '2026-01-01T11:00:00Z');
  });

  it('takes an explicit lastTransitionTime string as it is', () => {
    const conditions: Condition[] = [];
    setStatusCondition(conditions, {
      type: 'Ready',
      status: 'True',
      reason: 'Started',
      lastTransitionTime: '2025-12-31T23:59:59Z',
    });
    assert.equal(conditions[0]?.lastTransitionTime, '2025-12-31T23:59:59Z');
  });
});

describe('condition queries and removal', () => {
  const conditions = (): Condition[] => [
    { type: 'Ready', status: 'True', reason: 'Started', message: '', lastTransitionTime: at(T0) },
    { type: 'Degraded', status: 'False', reason: 'AllGood', message: '', lastTransitionTime: at(T0) },
    {
      type: 'Progressing',
      status: 'Unknown',
      reason: 'Pending',
      message: '',
      lastTransitionTime: at(T0),
    },
  ];

  it('tells True, False and absent apart', () => {
    const list = conditions();
    assert.equal(isStatusConditionTrue(list, 'Ready'), true);
    assert.equal(isStatusConditionFalse(list, 'Ready'), false);
    assert.equal(isStatusConditionFalse(list, 'Degraded'), true);
    assert.equal(isStatusConditionTrue(list, 'Progressing'), false);
    assert.equal(isStatusConditionFalse(list, 'Progressing'), false);
    assert.equal(isStatusConditionTrue(undefined, 'Ready'), false);
    assert.equal(findStatusCondition(list, 'Missing'), undefined);
  });

  it('removes a condition by type, once', () => {
    const list = conditions();
    assert.equal(removeStatusCondition(list, 'Degraded'), true);
    assert.deepEqual(
      list.map((c) => c.type),
      ['Ready', 'Progressing'],
    );
    assert.equal(removeStatusCondition(list, 'Degraded'), false);
  });
});

describe('setCondition on an object', () => {
  it('creates status.conditions and stamps the object generation', () => {
    const app: ObjectWithConditions = {
      apiVersion: 'demo.example.org/v1',
      kind: 'WebApp',
      metadata: { name: 'a', generation: 4 },
    };
    assert.equal(
      setCondition(app, { type: 'Available', status: 'True', reason: 'Reconciled' }, new FakeClock(T0)),
      true,
    );
    assert.deepEqual(app.status?.conditions, [
      {
        type: 'Available',
        status: 'True',
        reason: 'Reconciled',
        message: '',
        observedGeneration: 4,
        lastTransitionTime: at(T0),
      },
    ]);
  });

  it('keeps an explicit observedGeneration', () => {
    const app: ObjectWithConditions = { metadata: { name: 'a', generation: 4 }, status: { conditions: [] } };
    setCondition(
      app,
      { type: 'Available', status: 'False', reason: 'Stale', observedGeneration: 3 },
      new FakeClock(T0),
    );
    assert.equal(app.status?.conditions?.[0]?.observedGeneration, 3);
  });
});
