import type { V1Lease } from '@kubernetes/client-node';
import type { Json } from '../api/json.ts';
import type { EventHandler } from '../cache/event-handler.ts';
import { SharedInformer } from '../cache/informer.ts';
import { LeaseKind } from '../client/kinds.ts';
import type { Transport } from '../client/transport.ts';
import type { Clock } from '../clock/clock.ts';
import type { Logger } from '../log/logger.ts';
import { HashRing } from './hash-ring.ts';
import { RING_LABEL } from './shard-labels.ts';
import { isAvailable, shardStateOf } from './shard-state.ts';

/** Where the ring's Leases are, and what to watch them with. */
export interface LiveShardsOptions {
  readonly ring: string;
  readonly leaseNamespace: string;
  readonly transport: Transport;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * The ring as this replica sees it, read off the shard Leases it watches, without writing them
 * (the sharder alone labels and takes over Leases): the shards whose state allows assignments.
 * What the shard-assignment webhook hashes new objects onto, in every replica, leader or not.
 */
export class LiveShards {
  readonly #leases: SharedInformer<Json<V1Lease>>;
  readonly #clock: Clock;
  #ring = new HashRing([]);

  constructor(options: LiveShardsOptions) {
    this.#clock = options.clock;
    this.#leases = new SharedInformer<Json<V1Lease>>({
      kind: LeaseKind,
      transport: options.transport,
      namespaces: [options.leaseNamespace],
      labelSelector: `${RING_LABEL}=${options.ring}`,
      clock: options.clock,
      logger: options.logger.child({ component: 'live-shards', ring: options.ring }),
    });
  }

  /** Watches the Leases until `signal` aborts. */
  start(signal: AbortSignal): void {
    this.#leases.start(signal);
  }

  /** Tells `handler` of every change to the ring's Leases. */
  onChange(handler: EventHandler<Json<V1Lease>>): void {
    this.#leases.addEventHandler(handler);
  }

  /** Resolves true once the Leases are listed, false if `signal` aborts first. */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    return this.#leases.waitForSync(signal);
  }

  /** The ring of the shards available now; rebuilt only when they change. */
  ring(): HashRing {
    const now = this.#clock.now();
    const shards = [...this.#leases.store.values()]
      .filter((lease) => isAvailable(shardStateOf(lease, now)))
      .map((lease) => lease.metadata?.name ?? '')
      .sort();
    if (!this.#ring.hasShards(shards)) this.#ring = new HashRing(shards);
    return this.#ring;
  }
}
