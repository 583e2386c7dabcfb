import { Counter, Gauge, Histogram, type Registry } from '../metrics/prom-client.ts';
import { oncePerRegistry } from '../metrics/once-per-registry.ts';

/** What the sharder and each shard report, as `sharding_*` metrics. */
export interface ShardingMetrics {
  /** Objects in this shard's cache, per kind: its share of the ring. */
  readonly shardObjects: Gauge<'ring' | 'shard' | 'kind'>;
  /** 1 when the API server applied this shard's selector to the kind's last list (it echoed it), else 0. */
  readonly serverSelection: Gauge<'ring' | 'kind'>;
  /** Shards of the ring by state, as the sharder sees them. */
  readonly ringShards: Gauge<'ring' | 'state'>;
  /** Unassigned objects the sharder gave a shard. */
  readonly assignments: Counter<'ring' | 'group' | 'kind'>;
  /** Objects the sharder moved at once: off a dead shard, or controlled ones after their owner. */
  readonly movements: Counter<'ring' | 'group' | 'kind'>;
  /** Objects the sharder asked a live shard to let go of. */
  readonly drains: Counter<'ring' | 'group' | 'kind'>;
  /** Drains a shard acknowledged: it stopped reconciling the object and removed its labels. */
  readonly drainAcknowledgements: Counter<'ring' | 'shard'>;
  /** From a drain's mark, or a shard's death, to the object's new assignment. */
  readonly handoverSeconds: Histogram<'ring'>;
  /** Called on each scrape to set `shardObjects`. */
  readonly objectCounters: Set<() => void>;
}

/** The sharding metrics of `registry`, registered on first use. */
export const shardingMetrics = oncePerRegistry((registry: Registry): ShardingMetrics => {
  const registers = [registry];
  const objectCounters = new Set<() => void>();
  return {
    objectCounters,
    shardObjects: new Gauge({
      name: 'sharding_shard_objects',
      help: "Number of objects in this shard's cache per ring and kind",
      labelNames: ['ring', 'shard', 'kind'],
      registers,
      collect: () => {
        for (const count of objectCounters) count();
      },
    }),
    serverSelection: new Gauge({
      name: 'sharding_server_side_selection',
      help: "1 when the API server applied this shard's shard selector to the kind's last list, 0 when it was filtered here",
      labelNames: ['ring', 'kind'],
      registers,
    }),
    ringShards: new Gauge({
      name: 'sharding_ring_shards',
      help: 'Number of shards of the ring per state, as the sharder last saw their Leases',
      labelNames: ['ring', 'state'],
      registers,
    }),
    assignments: new Counter({
      name: 'sharding_assignments_total',
      help: 'Total number of unassigned objects the sharder assigned to a shard',
      labelNames: ['ring', 'group', 'kind'],
      registers,
    }),
    movements: new Counter({
      name: 'sharding_movements_total',
      help: 'Total number of objects the sharder moved to another shard without a drain',
      labelNames: ['ring', 'group', 'kind'],
      registers,
    }),
    drains: new Counter({
      name: 'sharding_drains_total',
      help: 'Total number of objects the sharder asked their live shard to drain',
      labelNames: ['ring', 'group', 'kind'],
      registers,
    }),
    drainAcknowledgements: new Counter({
      name: 'sharding_drain_acknowledgements_total',
      help: 'Total number of drains this shard acknowledged by removing its labels',
      labelNames: ['ring', 'shard'],
      registers,
    }),
    handoverSeconds: new Histogram({
      name: 'sharding_handover_duration_seconds',
      help: "Time from a drain's mark, or its shard's death, to the object's assignment to its new shard",
      labelNames: ['ring'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
  };
});
