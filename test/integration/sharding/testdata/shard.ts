// One shard of the "widgets" ring, run as its own process by sharding.test.ts (so that it can be
// sent SIGTERM or killed -9). Reconciles the Widgets of NAMESPACE labelled with its shard; every
// tenth one gets a ConfigMap it controls. Reports each reconcile's begin and end on stdout.
import { ConfigMapKind } from '../../../../src/runtime/client/kinds.ts';
import { isAlreadyExists } from '../../../../src/runtime/client/api-error.ts';
import { WidgetKind } from '../../controller/support.ts';
import { namespace, reported, ringShardManager, runShard } from './ring-shard.ts';

const mgr = await ringShardManager();
mgr
  .controller()
  .for(WidgetKind)
  .owns(ConfigMapKind)
  .sharded()
  .withOptions({ maxConcurrentReconciles: 4 })
  .complete(
    reported(async (req) => {
      const widget = await mgr.client.get(WidgetKind, req);
      if (widget && Number(req.name.split('-').pop()) % 10 === 0)
        await ensureConfigMap(req.name, widget.metadata?.uid ?? '');
      await new Promise((resolve) => setTimeout(resolve, 5));
      return {};
    }),
  );

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

await runShard(mgr);
