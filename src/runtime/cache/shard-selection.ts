import type { KubeObject } from '../api/kube-object.ts';

/**
 * A server-side shard of a kind (KEP-5866, the `ShardedListAndWatch` gate): the `shardSelector`
 * lists and watches send, and the same test on this side, for a server that ignores the parameter.
 */
export interface ShardSelection {
  /** The `shardSelector` query value, e.g. `shardRange(object.metadata.uid, '0x…', '0x…')`. */
  readonly selector: string;
  /** Whether `obj` is in the shard. */
  matches(obj: KubeObject): boolean;
}
