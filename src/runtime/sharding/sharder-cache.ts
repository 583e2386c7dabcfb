import type { V1Lease } from '@kubernetes/client-node';
import type { Json } from '../api/json.ts';
import { newCache, type Cache } from '../cache/cache.ts';
import { SharedInformer } from '../cache/informer.ts';
import type { Kind } from '../client/kind.ts';
import { LeaseKind } from '../client/kinds.ts';
import type { Transport } from '../client/transport.ts';
import type { Logger } from '../log/logger.ts';
import type { RingKind } from './ring-kind.ts';
import { RING_LABEL, shardLabel } from './shard-labels.ts';

/** Which ring's Leases a {@link ringLeaseInformer} watches, and how it reaches the API server. */
export interface RingLeasesOptions {
  readonly ring: string;
  /** Where the shards' Leases are. */
  readonly leaseNamespace: string;
  readonly transport: Transport;
  readonly logger: Logger;
}

/** What a {@link unassignedCache} holds, and how it reaches the API server. */
export interface UnassignedCacheOptions {
  readonly ring: string;
  readonly kinds: readonly RingKind[];
  /** Objects of this namespace only; '' for all namespaces. */
  readonly namespace: string;
  readonly transport: Transport;
  readonly logger: Logger;
}

/** The kinds a ring's sharder assigns: its own kinds and those they control, each once. */
export function sharderKinds(kinds: readonly RingKind[]): readonly Kind[] {
  return [...new Set(kinds.flatMap((k) => [k.kind, ...k.controlled]))];
}

/**
 * The ring's shard Leases, which the sharder reads to know who is alive. Every process that may
 * lead starts it before it leads, as controller-runtime starts its caches before the leader
 * election, so that a new leader's sharder takes a gone shard's Lease at once rather than after a
 * list of them. It holds only the ring's few Leases.
 */
export function ringLeaseInformer(o: RingLeasesOptions): SharedInformer<Json<V1Lease>> {
  return new SharedInformer<Json<V1Lease>>({
    kind: LeaseKind,
    transport: o.transport,
    namespaces: [o.leaseNamespace],
    labelSelector: `${RING_LABEL}=${o.ring}`,
    logger: o.logger.child({ component: 'sharder-cache' }),
  });
}

/**
 * The metadata of the ring's objects that have no shard yet (a label-selected watch), for the
 * leader's sharder to assign. Made by each leadership term's sharder, with the kinds of the ring
 * then: it also holds the objects of controlled kinds that no ring object controls, which only the
 * leader need hold.
 */
export function unassignedCache(o: UnassignedCacheOptions): Cache {
  const kinds = sharderKinds(o.kinds);
  const cache = newCache({
    transport: o.transport,
    logger: o.logger.child({ component: 'sharder-cache' }),
    byKind: kinds.map((kind) => ({
      kind,
      labelSelector: `!${shardLabel(o.ring)}`,
      metadataOnly: true,
      ...(o.namespace ? { namespaces: [o.namespace] } : {}),
    })),
  });
  // Made now, not on a first read: `start` starts the informers made so far.
  for (const kind of kinds) cache.informerFor(kind);
  return cache;
}
