import { newCache, type Cache } from '../cache/cache.ts';
import type { Kind } from '../client/kind.ts';
import { LeaseKind } from '../client/kinds.ts';
import type { Transport } from '../client/transport.ts';
import type { Logger } from '../log/logger.ts';
import type { RingKind } from './ring-kind.ts';
import { RING_LABEL, shardLabel } from './shard-labels.ts';

/** Which ring a {@link sharderCache} serves, and how it reaches the API server. */
export interface SharderCacheOptions {
  readonly ring: string;
  readonly kinds: readonly RingKind[];
  /** Where the shards' Leases are. */
  readonly leaseNamespace: string;
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
 * What a ring's sharder reads from caches: the ring's Leases, and the metadata of the objects
 * that have no shard yet (a label-selected watch, so it holds only the few waiting). Every
 * process that may lead starts it before it leads, as controller-runtime's caches start before
 * the leader election: a new leader's sharder then moves a gone shard's objects without first
 * listing the ring's Leases and unassigned objects (a second at 15,000 objects a kind).
 */
export function sharderCache(o: SharderCacheOptions): Cache {
  const cache = newCache({
    transport: o.transport,
    logger: o.logger.child({ component: 'sharder-cache' }),
    byKind: [
      { kind: LeaseKind, namespaces: [o.leaseNamespace], labelSelector: `${RING_LABEL}=${o.ring}` },
      ...sharderKinds(o.kinds).map((kind) => ({
        kind,
        labelSelector: `!${shardLabel(o.ring)}`,
        metadataOnly: true,
        ...(o.namespace ? { namespaces: [o.namespace] } : {}),
      })),
    ],
  });
  // Made now, not on the sharder's first read: `start` starts the informers made so far.
  for (const kind of [LeaseKind, ...sharderKinds(o.kinds)]) cache.informerFor(kind);
  return cache;
}
