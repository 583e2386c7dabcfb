import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import { linkedSignal } from '../../../src/runtime/clock/linked-signal.ts';

test('aborts with the reason of the first source to abort, and unhooks from the others', () => {
  const [first, second] = [new AbortController(), new AbortController()];
  const linked = linkedSignal([first.signal, second.signal]);
  assert.equal(linked.signal.aborted, false);
  second.abort(new Error('second'));
  assert.equal(linked.signal.aborted, true);
  assert.equal((linked.signal.reason as Error).message, 'second');
  first.abort(new Error('first'));
  assert.equal((linked.signal.reason as Error).message, 'second', 'the first abort decides');
  assert.equal(getEventListeners(first.signal, 'abort').length, 0);
});

test('is aborted at once when a source already is', () => {
  const done = new AbortController();
  done.abort(new Error('already'));
  const live = new AbortController();
  const linked = linkedSignal([live.signal, done.signal]);
  assert.equal(linked.signal.aborted, true);
  assert.equal((linked.signal.reason as Error).message, 'already');
  assert.equal(getEventListeners(live.signal, 'abort').length, 0, 'nothing hooked on the live one');
});

test('release leaves no listener on a long-lived source, and later aborts no longer reach it', () => {
  const lasting = new AbortController();
  for (let i = 0; i < 1000; i++) linkedSignal([lasting.signal]).release();
  assert.equal(getEventListeners(lasting.signal, 'abort').length, 0);
  const released = linkedSignal([lasting.signal]);
  released.release();
  lasting.abort();
  assert.equal(released.signal.aborted, false);
});
