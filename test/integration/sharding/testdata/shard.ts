// One shard of the "widgets" ring, run as its own process by sharding.test.ts (so that it can be
// sent SIGTERM or killed -9). Reconciles the Widgets of NAMESPACE labelled with its shard; every
// tenth one gets a ConfigMap it controls. Reports each reconcile's begin and end on stdout.
import { ConfigMapKind } from '../../../../src/runtime/client/kinds.ts';
import { isAlreadyExists } from '../../../../src/runtime/client/api-error.ts';
import { Manager } from '../../../../src/runtime/manager/manager.ts';
import { createLogger } from '../../../../src/runtime/log/logger.ts';
import { WidgetKind } from '../../controller/support.ts';
import { sharedNow } from '../shards.ts';

const shard = process.env['SHARD'] ?? 'shard';
const namespace = process.env['NAMESPACE'] ?? 'default';
const mgr = await Manager.create({
  namespace,
  metricsBindAddress: '127.0.0.1:0',
  metricsSecure: false,
  healthProbeBindAddress: '0',
  leaderElection: true,
  leaderElectionId: 'widgets-sharder',
  leaderElectionNamespace: namespace,
  leaseDuration: Number(process.env['LEASE_MS'] ?? '8000'),
  renewDeadline: Number(process.env['RENEW_MS'] ?? '6000'),
  retryPeriod: Number(process.env['RETRY_MS'] ?? '1000'),
  sharding: { ring: 'widgets', shardName: shard },
  // Warnings only, on stderr: what a test reads of a shard's complaints.
  logger: createLogger({ level: 'warn' }),
});
mgr
  .controller()
  .for(WidgetKind)
  .owns(ConfigMapKind)
  .sharded()
  .withOptions({ maxConcurrentReconciles: 4 })
  .complete({
    reconcile: async (req) => {
      process.stdout.write(`B ${shard} ${req.name} ${sharedNow()}\n`);
      try {
        const widget = await mgr.client.get(WidgetKind, req);
        if (widget && Number(req.name.split('-').pop()) % 10 === 0) await ensureConfigMap(req.name, widget.metadata?.uid ?? '');
        await new Promise((resolve) => setTimeout(resolve, 5));
        return {};
      } finally {
        // A failed reconcile ended too: left open, it would overlap every later one of the Widget.
        process.stdout.write(`E ${shard} ${req.name} ${sharedNow()}\n`);
      }
    },
  });

/** The Widget's ConfigMap, controlled by it; one still on the Widget's previous shard is left to the sharder. */
async function ensureConfigMap(name: string, uid: string): Promise<void> {
  if (await mgr.client.get(ConfigMapKind, { namespace, name: `${name}-cm` })) return;
  const ownerReferences = [
    { apiVersion: WidgetKind.apiVersion, kind: WidgetKind.kind, name, uid, controller: true },
  ];
  try {
    await mgr.client.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${name}-cm`, namespace, ownerReferences },
    });
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
}

const announce = setInterval(() => {
  if (!mgr.metricsUrl) return;
  process.stdout.write(`M ${shard} ${mgr.metricsUrl}\n`);
  clearInterval(announce);
}, 50);
await mgr.start();
process.stdout.write(`X ${shard} exited cleanly\n`);
