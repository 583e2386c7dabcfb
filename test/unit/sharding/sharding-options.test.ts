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

  it('needs leader election, and a shard that gives up before the sharder moves its objects', () => {
    const sharding = { ring: 'webapp', shardName: 'pod-0' };
    assert.throws(() => resolveManagerOptions({ kubeConfig, sharding }), /needs leaderElection/);
    assert.throws(
      () =>
        resolveManagerOptions({
          kubeConfig,
          sharding,
          leaderElection: true,
          leaderElectionId: 'x',
          leaseDuration: 10_000,
          renewDeadline: 9_000,
          retryPeriod: 2_000,
        }),
      /within leaseDuration/,
    );
  });
});
