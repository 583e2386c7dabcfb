// One replica of the sharding benchmark (run with --expose-gc by run.ts): a sharded manager of
// ring RING (or, with RING unset, one unsharded manager) reconciling the Widgets of NAMESPACE,
// split by labels or, with SELECTION=server, by the API server's shard selector.
// Prints `R <name>` per finished reconcile; on a line `stats` on stdin `S <json>` (its figures),
// on any other line `C <cached Widgets>`.
import { createInterface } from 'node:readline';
import { Manager } from '../../src/runtime/manager/manager.ts';
import { silentLogger } from '../../src/runtime/log/logger.ts';
import { WidgetKind } from '../../test/integration/controller/support.ts';
import { residentBytes } from '../cache/resident-bytes.ts';

const gc = (globalThis as { gc?: () => void }).gc;
const heapAfterGc = (): number => {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
};
/**
 * What the cached Widgets take, read off a copy of them: the heap a fresh JSON copy of every
 * cached object holds (the store's own map entries and indexes left out). It needs no baseline, so
 * no fixed part of the process blurs it.
 */
const copiedBytes = (objects: readonly unknown[]): number => {
  const before = heapAfterGc();
  const copy = objects.map((o) => JSON.parse(JSON.stringify(o)) as unknown);
  const held = heapAfterGc() - before;
  return copy.length > 0 ? held : 0;
};
const ring = process.env['RING'];
const shard = process.env['SHARD'] ?? 'single';
const namespace = process.env['NAMESPACE'] ?? 'default';
const selection = process.env['SELECTION'] === 'server' ? 'server' : 'labels';
const concurrentMoves = process.env['CONCURRENT_MOVES'];
const heapBefore = heapAfterGc();
const cpuBefore = process.cpuUsage();
const mgr = await Manager.create({
  namespace,
  metricsBindAddress: '0',
  healthProbeBindAddress: '0',
  leaderElection: true,
  leaderElectionId: ring ? `bench-${ring}` : 'bench-single',
  leaderElectionNamespace: namespace,
  // client-go's timings: a 2-core machine shared with other work misses shorter renew deadlines.
  leaseDuration: 15_000,
  renewDeadline: 10_000,
  retryPeriod: 2_000,
  ...(ring
    ? {
        sharding: {
          ring,
          shardName: shard,
          controllers: 'all' as const,
          selection,
          ...(concurrentMoves ? { concurrentMoves: Number(concurrentMoves) } : {}),
        },
      }
    : {}),
  logger: silentLogger,
});
mgr
  .controller()
  .for(WidgetKind)
  .withOptions({ maxConcurrentReconciles: 4 })
  .complete({
    reconcile: async (req) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      process.stdout.write(`R ${req.name}\n`);
      return {};
    },
  });
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const cached = mgr.cache.informerFor(WidgetKind).store.size;
  if (line !== 'stats') {
    process.stdout.write(`C ${cached}\n`);
    return;
  }
  const cpu = process.cpuUsage(cpuBefore);
  const figures = {
    shard,
    cached,
    cacheHeapBytes: heapAfterGc() - heapBefore,
    copiedBytes: copiedBytes([...mgr.cache.informerFor(WidgetKind).store.values()]),
    peakRssBytes: residentBytes('VmHWM'),
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
  process.stdout.write(`S ${JSON.stringify(figures)}\n`);
});
const started = mgr.start();
// `Y` once the caches hold what they will: the empty-ring baseline is read after it.
void mgr.cache.waitForCacheSync().then(() => process.stdout.write('Y\n'));
await started;
// The manager has stopped: stdin, held open by the harness, must not keep the process up.
lines.close();
process.stdin.destroy();
