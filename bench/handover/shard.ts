// One shard of the sharded hand-over benchmark (sharded.ts runs several): the ring "webapps" of
// NAMESPACE, whose Widgets each own a Deployment and a Service, made as the generated project's
// controller makes a WebApp's, by createOrUpdate from the shard's cache. Prints `R <name>` per
// reconcile that succeeded and `F <name> <message>` per one that failed. With LOG_FILE, logs at
// debug level there (each reconcile's line left out), for a timeline of a hand-over.
import { appendFileSync } from 'node:fs';
import { DeploymentKind, ServiceKind } from '../../src/runtime/client/kinds.ts';
import { createOrUpdate } from '../../src/runtime/controllerutil/create-or-update.ts';
import { createLogger, silentLogger } from '../../src/runtime/log/logger.ts';
import { Manager } from '../../src/runtime/manager/manager.ts';
import { setControllerReference } from '../../src/runtime/owner/owner-references.ts';
import { WidgetKind, type Widget } from '../../test/integration/controller/support.ts';
import { deploymentSpecOf, serviceSpecOf } from './webapp-children.ts';

const shard = process.env['SHARD'] ?? 'shard';
const namespace = process.env['NAMESPACE'] ?? 'default';
const logFile = process.env['LOG_FILE'];
const mgr = await Manager.create({
  namespace,
  metricsBindAddress: '0',
  healthProbeBindAddress: '0',
  leaderElection: true,
  leaderElectionId: 'bench-webapps',
  leaderElectionNamespace: namespace,
  // client-go's timings.
  leaseDuration: 15_000,
  renewDeadline: 10_000,
  retryPeriod: 2_000,
  sharding: { ring: 'webapps', shardName: shard, controllers: 'all' },
  logger: logFile ? createLogger({ level: 'debug', write: (line) => logLine(logFile, line) }) : silentLogger,
});
mgr
  .controller()
  .for(WidgetKind)
  .owns(DeploymentKind)
  .owns(ServiceKind)
  .withOptions({ maxConcurrentReconciles: 4 })
  .complete({
    reconcile: async (req) => {
      const widget = await mgr.client.get(WidgetKind, req);
      if (!widget) return {};
      try {
        await ensureChildren(widget);
        process.stdout.write(`R ${req.name}\n`);
        return {};
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        process.stdout.write(`F ${req.name} ${message.replaceAll('\n', ' ')}\n`);
        throw err;
      }
    },
  });

/**
 * The Widget's Deployment and (headless) Service, named as it and controlled by it. Their spec is
 * written at creation only: a reconcile of a Widget whose children exist reads and writes nothing
 * else, so the writes timed are the hand-over's.
 */
async function ensureChildren(widget: Widget): Promise<void> {
  const name = widget.metadata?.name ?? '';
  const key = { namespace, name };
  await createOrUpdate(mgr.client, DeploymentKind, key, (d) => {
    setControllerReference(widget, d);
    if (!d.metadata?.resourceVersion) d.spec = deploymentSpecOf(name);
  });
  await createOrUpdate(mgr.client, ServiceKind, key, (s) => {
    setControllerReference(widget, s);
    if (!s.metadata?.resourceVersion) s.spec = serviceSpecOf(name);
  });
}

function logLine(file: string, line: string): void {
  if (!line.includes('"msg":"reconciled"')) appendFileSync(file, line);
}

await mgr.start();
