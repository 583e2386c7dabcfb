// A manager run as its own process by graceful-shutdown.test.ts: reconciles ConfigMaps in the
// "slow" namespace, each taking SLOW_MS, and reports on stdout when each starts and finishes.
import { ConfigMapKind } from '../../../../src/runtime/client/kinds.ts';
import { Manager } from '../../../../src/runtime/manager/manager.ts';
import { silentLogger } from '../../../../src/runtime/log/logger.ts';

const slowMs = Number(process.env['SLOW_MS'] ?? '1500');
const mgr = await Manager.create({
  namespace: 'slow',
  metricsBindAddress: '0',
  healthProbeBindAddress: '0',
  leaderElection: true,
  leaderElectionId: 'slow-operator',
  leaderElectionNamespace: 'slow',
  logger: silentLogger,
});
mgr
  .controller()
  .for(ConfigMapKind)
  .complete({
    reconcile: async (req, signal) => {
      process.stdout.write(`started ${req.name}\n`);
      await new Promise((resolve) => setTimeout(resolve, slowMs));
      process.stdout.write(`finished ${req.name} aborted=${signal.aborted}\n`);
      return {};
    },
  });
await mgr.start();
process.stdout.write('exited cleanly\n');
