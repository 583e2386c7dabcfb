import { hostname } from 'node:os';
import type { ShardKey } from './range-member.ts';
import { isLabelValue } from './shard-labels.ts';

/** What `ManagerOptions.sharding` takes. Durations are in milliseconds. */
export interface ShardingOptions {
  /** The ring's name: the suffix of the shard label and the value of the Leases' ring label. Required. */
  readonly ring: string;
  /**
   * This replica's shard: the name and holder of its Lease and the value of the shard label on the
   * objects it reconciles, so a valid label value of at most 63 characters. Default: the host
   * name, which is the pod's name in a cluster.
   */
  readonly shardName?: string;
  /**
   * Run the sharder on the leader. False when another sharder manages the ring, such as the
   * kubernetes-controller-sharding project's (a ControllerRing naming this ring): this replica
   * then only holds its shard Lease and answers drains, whose labels and Lease it shares. Default: true.
   */
  readonly sharder?: boolean;
  /**
   * Which controllers are sharded: those declared `.sharded()`, or every controller the manager
   * builds (`.sharded(false)` keeps one on the leader). Default: 'sharded'.
   */
  readonly controllers?: 'sharded' | 'all';
  /**
   * With 'labels': serve the shard-assignment webhook on this replica's webhook server (see
   * `shardAssignmentWebhookConfiguration` for its configuration), which labels each new object of
   * the ring with its shard as it is created. Default: false (the sharder labels it after).
   */
  readonly assignmentWebhook?: boolean;
  /** How often the sharder checks every object's shard without a membership change. Default: 300 000. */
  readonly resyncPeriod?: number;
  /** Assignments, drains and moves the sharder writes at once. Default: 8. */
  readonly concurrentMoves?: number;
  /**
   * How objects are split. 'labels': the sharder labels each object with its shard, and each shard
   * watches its label (owned objects follow their owner). 'server': the API server splits by a
   * hash of each object (KEP-5866 `shardSelector`, alpha gate ShardedListAndWatch; filtered on
   * this side too, for a server without it), in N equal ranges of N live shards, and no object is
   * written. Default: 'labels'.
   */
  readonly selection?: 'labels' | 'server';
  /**
   * With 'server': hash each object's uid, or its namespace. Only 'namespace' keeps owned objects
   * with their owner; with 'uid' the owned kinds are cached whole. Default: 'uid'.
   */
  readonly key?: ShardKey;
}

export type ResolvedShardingOptions = Required<ShardingOptions>;

/** The one place the defaults above are applied; throws on a shard name no label can hold. */
export function resolveShardingOptions(options: ShardingOptions): ResolvedShardingOptions {
  const shardName = options.shardName ?? hostname();
  if (!isLabelValue(shardName)) {
    throw new Error(
      `shard name "${shardName}" is not a valid label value (63 characters at most, alphanumeric at both ends): set sharding.shardName`,
    );
  }
  if (!isLabelValue(options.ring)) {
    throw new Error(
      `ring name "${options.ring}" is not a valid label value: pick a short name like "webapp"`,
    );
  }
  return {
    ring: options.ring,
    shardName,
    resyncPeriod: options.resyncPeriod ?? 300_000,
    concurrentMoves: options.concurrentMoves ?? 8,
    selection: options.selection ?? 'labels',
    controllers: options.controllers ?? 'sharded',
    sharder: options.sharder ?? true,
    assignmentWebhook: options.assignmentWebhook ?? false,
    key: options.key ?? 'uid',
  };
}
