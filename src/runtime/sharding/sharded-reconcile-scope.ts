import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kind } from '../client/kind.ts';
import type { Request } from '../reconcile/request.ts';

/** The sharded reconcile a write happens in: which shard of which ring reconciles which object. */
export interface ShardedReconcileScope {
  readonly ring: string;
  readonly shard: string;
  readonly kind: Kind;
  readonly request: Request;
}

const scopes = new AsyncLocalStorage<ShardedReconcileScope>();

/** Runs `reconcile` so that the writes it makes know they are made for `scope`'s object. */
export function inShardedReconcile<T>(scope: ShardedReconcileScope, reconcile: () => Promise<T>): Promise<T> {
  return scopes.run(scope, reconcile);
}

/** The sharded reconcile the caller runs in; undefined outside one (an unsharded controller, say). */
export function currentShardedReconcile(): ShardedReconcileScope | undefined {
  return scopes.getStore();
}
