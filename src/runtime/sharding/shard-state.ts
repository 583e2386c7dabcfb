import type { V1Lease } from '@kubernetes/client-node';
import type { Json } from '../api/json.ts';

/**
 * A shard's state from its Lease, as the external project defines it: `ready` while held by the
 * shard (holder = Lease name) and not expired; `expired` up to one lease duration past expiry;
 * `uncertain` after that; `dead` once released (no holder) or taken over by the sharder; `orphaned`
 * a minute past expiry when dead, when the Lease may be deleted.
 */
export type ShardState = 'ready' | 'expired' | 'uncertain' | 'dead' | 'orphaned';

/** How long past its expiry a dead shard's Lease is kept. */
const ORPHAN_AFTER_MS = 60_000;
/** What a Lease without its times counts for, as the external project reads it. */
const DEFAULT_LEASE_DURATION_MS = 15_000;

/** The state of the shard `lease` stands for, at wall time `now` (ms). */
export function shardStateOf(lease: Json<V1Lease>, now: number): ShardState {
  const spec = lease.spec;
  const durationMs =
    spec?.leaseDurationSeconds === undefined ? DEFAULT_LEASE_DURATION_MS : spec.leaseDurationSeconds * 1000;
  const expiry = spec?.renewTime && spec.acquireTime ? Date.parse(spec.renewTime) + durationMs : now;
  const holder = spec?.holderIdentity ?? '';
  if (holder === '' || holder !== lease.metadata?.name) {
    return now >= expiry + ORPHAN_AFTER_MS ? 'orphaned' : 'dead';
  }
  if (now >= expiry + durationMs) return 'uncertain';
  return now >= expiry ? 'expired' : 'ready';
}

/**
 * Whether objects may be assigned to a shard in this state: every state but dead and orphaned, as
 * in the external project. An expired shard keeps its objects until the sharder declares it dead.
 */
export function isAvailable(state: ShardState): boolean {
  return state !== 'dead' && state !== 'orphaned';
}
