import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveManagerOptions } from '../../../src/runtime/manager/manager-options.ts';
import { resolveShardingOptions } from '../../../src/runtime/sharding/sharding-options.ts';

const kubeConfig = { server: 'https://127.0.0.1:6443', namespace: 'default', source: 'a test' };

describe('sharding options', () => {
  it('defaults to label mode, the sharder on, and the controllers declared sharded', () => {
    const resolved = resolveShardingOptions({ ring: 'webapp', shardName: 'pod-0' });
    assert.deepEqual(
      [resolved.selection, resolved.sharder, resolved.controllers, resolved.key],
      ['labels', true, 'sharded', 'uid'],
    );
  });

  it('refuses a shard name no label value can hold', () => {
    assert.throws(
      () => resolveShardingOptions({ ring: 'webapp', shardName: 'a'.repeat(64) }),
      /valid label value/,
    );
  });

  it('needs leader election', () => {
    const sharding = { ring: 'webapp', shardName: 'pod-0' };
    assert.throws(() => resolveManagerOptions({ kubeConfig, sharding }), /needs leaderElection/);
  });

  it('needs a retry period of margin past a shard giving up before its Lease expires', () => {
    const timings = (leaseDuration: number) => ({
      kubeConfig,
      sharding: { ring: 'webapp', shardName: 'pod-0' },
      leaderElection: true,
      leaderElectionId: 'x',
      leaseDuration,
      renewDeadline: 6_000,
      retryPeriod: 1_000,
    });
    // Equal to retry period + renew deadline: the shard could still run when its objects move.
    assert.throws(
      () => resolveManagerOptions(timings(7_000)),
      /leaseDuration >= renewDeadline \+ 2 × retryPeriod \(6000 \+ 2 × 1000 = 8000 ms\), but leaseDuration is 7000 ms/,
    );
    assert.throws(() => resolveManagerOptions(timings(7_999)), /raise leaseDuration or lower renewDeadline/);
    assert.equal(resolveManagerOptions(timings(8_000)).leaseDuration, 8_000);
    const defaults = resolveManagerOptions({
      ...timings(8_000),
      leaseDuration: undefined,
      renewDeadline: undefined,
      retryPeriod: undefined,
    });
    assert.equal(defaults.leaseDuration, 15_000, 'the defaults (15 s, 10 s, 2 s) leave the margin');
  });
});
