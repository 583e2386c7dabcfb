// A replica that leads and holds the shard Lease "s1", run by lost-shard-lease.test.ts: its
// sharded Widget reconcile and its unsharded (leader-only) ConfigMap reconcile both run long and
// ignore their signals, so that what ends them is the process exiting. Reports B/E lines and its
// exit code on stdout.
import { ConfigMapKind } from '../../../../src/runtime/client/kinds.ts';
import { Manager } from '../../../../src/runtime/manager/manager.ts';
import { silentLogger } from '../../../../src/runtime/log/logger.ts';
import { WidgetKind } from '../../controller/support.ts';

const namespace = process.env['NAMESPACE'] ?? 'default';
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const mgr = await Manager.create({
  namespace,
  metricsBindAddress: '0',
  healthProbeBindAddress: '0',
  leaderElection: true,
  leaderElectionId: 'lost-sharder',
  leaderElectionNamespace: namespace,
  leaseDuration: 4000,
  renewDeadline: 2500,
  retryPeriod: 500,
  gracefulShutdownTimeout: 60_000,
  sharding: { ring: 'lost', shardName: 's1' },
  logger: silentLogger,
});
mgr
  .controller()
  .for(WidgetKind)
  .sharded()
  .complete({
    reconcile: async (req) => {
      process.stdout.write(`B sharded ${req.name}\n`);
      await sleep(Number(process.env['SHARDED_MS'] ?? '15000'));
      process.stdout.write(`E sharded ${req.name}\n`);
      return {};
    },
  });
mgr
  .controller()
  .for(ConfigMapKind)
  .complete({
    reconcile: async (req) => {
      if (req.name !== 'slow') return {};
      process.stdout.write(`B unsharded ${req.name}\n`);
      await sleep(Number(process.env['UNSHARDED_MS'] ?? '30000'));
      process.stdout.write(`E unsharded ${req.name}\n`);
      return {};
    },
  });
try {
  await mgr.start();
  process.stdout.write('X 0\n');
} catch (err) {
  process.stdout.write(`X 1 ${(err as Error).name}\n`);
  process.exit(1);
}
