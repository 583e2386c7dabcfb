import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubernetesObject } from '@kubernetes/client-node';
import {
  addFinalizer,
  containsFinalizer,
  isBeingDeleted,
  removeFinalizer,
} from '../../../src/runtime/finalizer/finalizers.ts';

const F = 'demo.example.org/cleanup';

test('addFinalizer adds once and says whether it changed the object', () => {
  const obj: KubernetesObject = { metadata: { name: 'a' } };
  assert.equal(addFinalizer(obj, F), true);
  assert.equal(addFinalizer(obj, F), false);
  assert.deepEqual(obj.metadata?.finalizers, [F]);
  assert.equal(containsFinalizer(obj, F), true);
});

test('removeFinalizer removes it and leaves the others', () => {
  const obj: KubernetesObject = { metadata: { name: 'a', finalizers: ['other', F] } };
  assert.equal(removeFinalizer(obj, F), true);
  assert.equal(removeFinalizer(obj, F), false);
  assert.deepEqual(obj.metadata?.finalizers, ['other']);
  assert.equal(containsFinalizer(obj, F), false);
  assert.equal(containsFinalizer({}, F), false);
});

test('isBeingDeleted reads the deletion timestamp', () => {
  assert.equal(isBeingDeleted({ metadata: { name: 'a' } }), false);
  assert.equal(isBeingDeleted({ metadata: { name: 'a', deletionTimestamp: new Date(0) } }), true);
});
