import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Lease } from '@kubernetes/client-node';
import type { Json } from '../../../src/runtime/api/json.ts';
import { isAvailable, shardStateOf } from '../../../src/runtime/sharding/shard-state.ts';

/** A Lease as read from the API server: its MicroTimes are strings. */
function lease(holder: string, renewedAt: number): Json<V1Lease> {
  const time = new Date(renewedAt).toISOString();
  return {
    metadata: { name: 'shard-a' },
    spec: { holderIdentity: holder, leaseDurationSeconds: 10, acquireTime: time, renewTime: time },
  };
}

describe('shardStateOf', () => {
  const t0 = Date.parse('2026-01-01T00:00:00Z');

  it('reads ready, expired and uncertain from renew time and duration while the shard holds it', () => {
    assert.equal(shardStateOf(lease('shard-a', t0), t0 + 9_000), 'ready');
    assert.equal(shardStateOf(lease('shard-a', t0), t0 + 10_000), 'expired');
    assert.equal(shardStateOf(lease('shard-a', t0), t0 + 20_000), 'uncertain');
  });

  it('reads dead once released or held by another, and orphaned a minute past expiry', () => {
    assert.equal(shardStateOf(lease('', t0), t0), 'dead');
    assert.equal(shardStateOf(lease('shardlease-controller', t0), t0 + 69_000), 'dead');
    assert.equal(shardStateOf(lease('shardlease-controller', t0), t0 + 70_000), 'orphaned');
  });

  it('counts every state but dead and orphaned as available', () => {
    assert.deepEqual((['ready', 'expired', 'uncertain', 'dead', 'orphaned'] as const).map(isAvailable), [
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});
