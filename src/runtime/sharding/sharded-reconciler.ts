import type { Client } from '../client/client.ts';
import type { Kind } from '../client/kind.ts';
import { mergePatch } from '../client/patch.ts';
import type { Reconciler } from '../reconcile/reconciler.ts';
import type { Request } from '../reconcile/request.ts';
import type { Result } from '../reconcile/result.ts';
import { inShardedReconcile } from './sharded-reconcile-scope.ts';
import { drainLabel, shardLabel } from './shard-labels.ts';
import type { ShardingMetrics } from './sharding-metrics.ts';

/** What {@link ShardedReconciler} wraps, and for which shard. */
export interface ShardedReconcilerOptions {
  readonly reconciler: Reconciler;
  readonly client: Client;
  readonly kind: Kind;
  readonly ring: string;
  readonly shard: string;
  readonly metrics: ShardingMetrics;
}

/**
 * The shard's side of the ring: reconciles an object only while its shard label names this shard,
 * and answers a drain by removing the shard and drain labels instead (with the resourceVersion it
 * read, so a newer change wins), after which the sharder assigns it anew. The workqueue never runs
 * two reconciles of one key at once, so once the drain is acknowledged no reconcile of this shard
 * is left on the object; and the client's reads wait for that write, so none starts again. The
 * wrapped reconcile runs in a {@link inShardedReconcile} scope: the objects it writes for its
 * object land on this shard.
 */
export class ShardedReconciler implements Reconciler {
  readonly #o: ShardedReconcilerOptions;
  readonly #shardLabel: string;
  readonly #drainLabel: string;

  constructor(options: ShardedReconcilerOptions) {
    this.#o = options;
    this.#shardLabel = shardLabel(options.ring);
    this.#drainLabel = drainLabel(options.ring);
  }

  async reconcile(request: Request, signal: AbortSignal): Promise<Result> {
    const { client, kind, shard } = this.#o;
    const obj = await client.get(kind, request, { signal });
    const labels = obj?.metadata?.labels ?? {};
    if (!obj || labels[this.#shardLabel] !== shard) return {};
    if (labels[this.#drainLabel] === undefined) {
      const scope = { ring: this.#o.ring, shard, kind, request };
      return inShardedReconcile(scope, () => this.#o.reconciler.reconcile(request, signal));
    }
    const release = { [this.#shardLabel]: null, [this.#drainLabel]: null };
    await client.patch(
      obj,
      mergePatch({ metadata: { resourceVersion: obj.metadata?.resourceVersion, labels: release } }),
      { signal },
    );
    this.#o.metrics.drainAcknowledgements.inc({ ring: this.#o.ring, shard });
    return {};
  }
}
