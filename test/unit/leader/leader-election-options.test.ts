import assert from 'node:assert/strict';
import { test } from 'node:test';
import { systemClock } from '../../../src/runtime/clock/clock.ts';
import {
  resolveLeaderElectionOptions,
  type LeaderElectionOptions,
} from '../../../src/runtime/leader/leader-election-options.ts';
import type { LeaseLock } from '../../../src/runtime/leader/lease-lock.ts';

const unusedLock: LeaseLock = {
  description: 'webapp-system/webapp-leader',
  get: () => Promise.reject(new Error('not called')),
  create: () => Promise.reject(new Error('not called')),
  update: () => Promise.reject(new Error('not called')),
};
const base: LeaderElectionOptions = { lock: unusedLock, callbacks: { onStartedLeading: () => undefined } };

test("defaults are client-go's, the identity is host_uuid, and the metric is named after the lock", () => {
  const resolved = resolveLeaderElectionOptions(base);
  assert.equal(resolved.leaseDuration, 15_000);
  assert.equal(resolved.renewDeadline, 10_000);
  assert.equal(resolved.retryPeriod, 2_000);
  assert.equal(resolved.releaseOnCancel, true);
  assert.equal(resolved.name, 'webapp-system/webapp-leader');
  assert.equal(resolved.clock, systemClock);
  assert.match(resolved.identity, /^.+_[0-9a-f-]{36}$/);
  assert.notEqual(resolveLeaderElectionOptions(base).identity, resolved.identity);
});

test('durations that would let two leaders overlap are refused', () => {
  assert.throws(
    () => resolveLeaderElectionOptions({ ...base, leaseDuration: 10_000 }),
    /leaseDuration must be greater/,
  );
  assert.throws(
    () => resolveLeaderElectionOptions({ ...base, renewDeadline: 2_400 }),
    /renewDeadline must be greater/,
  );
  assert.throws(() => resolveLeaderElectionOptions({ ...base, identity: '' }), /identity must not be empty/);
});
