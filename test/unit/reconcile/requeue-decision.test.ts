import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requeueOf } from '../../../src/runtime/reconcile/requeue-decision.ts';
import { done, requeue, requeueAfter } from '../../../src/runtime/reconcile/result.ts';

test('an empty result is done; requeue is backoff; a positive requeueAfter is a delay', () => {
  assert.deepEqual(requeueOf(done()), { kind: 'done' });
  assert.deepEqual(requeueOf({ requeue: false }), { kind: 'done' });
  assert.deepEqual(requeueOf(requeue()), { kind: 'backoff' });
  assert.deepEqual(requeueOf(requeueAfter(5000)), { kind: 'after', delayMs: 5000 });
});

test('requeueAfter(0), a negative or a NaN delay still requeue, with backoff', () => {
  for (const ms of [0, -1, Number.NaN]) assert.deepEqual(requeueOf(requeueAfter(ms)), { kind: 'backoff' });
});

test('a positive requeueAfter wins over requeue, as in controller-runtime', () => {
  assert.deepEqual(requeueOf({ requeue: true, requeueAfter: 250 }), { kind: 'after', delayMs: 250 });
  assert.deepEqual(requeueOf({ requeue: true, requeueAfter: 0 }), { kind: 'backoff' });
});
