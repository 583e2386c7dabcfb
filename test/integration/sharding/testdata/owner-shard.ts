// One shard of the "widgets" ring, run as its own process by join-owned-objects.test.ts. Reconciles
// the Widgets of NAMESPACE labelled with its shard as the generated project's controller does its
// WebApps: each Widget owns a ConfigMap and a Secret, made by createOrUpdate from the shard's cache;
// a failed reconcile records a ReconcileFailed Warning event, as the user would see it. Reports each
// reconcile's begin and end, and each failure, on stdout.
import { ConfigMapKind, SecretKind } from '../../../../src/runtime/client/kinds.ts';
import { createOrUpdate } from '../../../../src/runtime/controllerutil/create-or-update.ts';
import { createLogger } from '../../../../src/runtime/log/logger.ts';
import { Manager } from '../../../../src/runtime/manager/manager.ts';
import { setControllerReference } from '../../../../src/runtime/owner/owner-references.ts';
import { WidgetKind, type Widget } from '../../controller/support.ts';
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
  leaseDuration: 8000,
  renewDeadline: 6000,
  retryPeriod: 1000,
  sharding: { ring: 'widgets', shardName: shard },
  logger: createLogger({ level: 'warn' }),
});
mgr
  .controller()
  .for(WidgetKind)
  .owns(ConfigMapKind)
  .owns(SecretKind)
  .sharded()
  .withOptions({ maxConcurrentReconciles: 4 })
  .complete({
    reconcile: async (req) => {
      process.stdout.write(`B ${shard} ${req.name} ${sharedNow()}\n`);
      const widget = await mgr.client.get(WidgetKind, req);
      try {
        if (widget) await ensureChildren(widget);
        return {};
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        process.stdout.write(`F ${shard} ${req.name} ${message.replaceAll('\n', ' ')}\n`);
        if (widget) mgr.events.event(widget, 'Warning', 'ReconcileFailed', 'Reconcile', message);
        throw err;
      } finally {
        process.stdout.write(`E ${shard} ${req.name} ${sharedNow()}\n`);
      }
    },
  });

/** The Widget's ConfigMap and Secret, named as it and controlled by it. */
async function ensureChildren(widget: Widget): Promise<void> {
  const key = { namespace, name: widget.metadata?.name ?? '' };
  await createOrUpdate(mgr.client, ConfigMapKind, key, (cm) => {
    setControllerReference(widget, cm);
    cm.data = { size: String(widget.spec?.size ?? 0) };
  });
  await createOrUpdate(mgr.client, SecretKind, key, (secret) => {
    setControllerReference(widget, secret);
    secret.data = { size: Buffer.from(String(widget.spec?.size ?? 0)).toString('base64') };
  });
}

const announce = setInterval(() => {
  if (!mgr.metricsUrl) return;
  process.stdout.write(`M ${shard} ${mgr.metricsUrl}\n`);
  clearInterval(announce);
}, 50);
await mgr.start();
process.stdout.write(`X ${shard} exited cleanly\n`);
