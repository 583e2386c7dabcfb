// One shard of the "widgets" ring, run as its own process by draining-leader.test.ts. With STUCK=1
// it can be made to stop leading without losing its leader Lease while its shard still drains: a
// leader-only ConfigMap reconcile of "slow" ignores its signal (the leader's drain outlives the
// graceful-shutdown timeout GRACE_MS, so the leader Lease is left to expire), one of "panic" halts
// the leader's controllers, and a sharded reconcile of a Widget of size 99 ignores its signal too
// (the shard drains for a graceful-shutdown timeout more, renewing its Lease). Reports each
// reconcile's begin and end on stdout (a leader reconcile under its ConfigMap's name).
import { ConfigMapKind } from '../../../../src/runtime/client/kinds.ts';
import { WidgetKind } from '../../controller/support.ts';
import { sharedNow } from '../shards.ts';
import { reported, ringShardManager, runShard, shard } from './ring-shard.ts';

const stuck = process.env['STUCK'] === '1';
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const mgr = await ringShardManager({ gracefulShutdownTimeout: Number(process.env['GRACE_MS'] ?? '6000') });
mgr
  .controller()
  .for(WidgetKind)
  .sharded()
  .withOptions({ maxConcurrentReconciles: 4 })
  .complete(
    reported(async (req) => {
      const widget = await mgr.client.get(WidgetKind, req);
      await sleep(stuck && widget?.spec?.size === 99 ? 60_000 : 5);
      return {};
    }),
  );
mgr
  .controller()
  .for(ConfigMapKind)
  .withOptions({ recoverPanic: false, maxConcurrentReconciles: 2 })
  .complete({
    reconcile: async (req) => {
      if (!stuck || (req.name !== 'slow' && req.name !== 'panic')) return {};
      process.stdout.write(`B ${shard} configmap/${req.name} ${sharedNow()}\n`);
      if (req.name === 'panic') throw new TypeError('a leader reconcile panicked');
      await sleep(60_000);
      process.stdout.write(`E ${shard} configmap/${req.name} ${sharedNow()}\n`);
      return {};
    },
  });
await runShard(mgr);
