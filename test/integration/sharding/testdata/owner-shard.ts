// One shard of the "widgets" ring, run as its own process by join-owned-objects.test.ts. Reconciles
// the Widgets of NAMESPACE labelled with its shard as the generated project's controller does its
// WebApps: each Widget owns a ConfigMap and a Secret, made by createOrUpdate from the shard's cache;
// a reconcile sets the Widget's Degraded condition False, and a failed one sets it True and records
// a ReconcileFailed Warning event, as the user would see them. Reports each reconcile's begin and
// end, and each failure, on stdout.
import { isDeepStrictEqual } from 'node:util';
import { isConflict } from '../../../../src/runtime/client/api-error.ts';
import { ConfigMapKind, SecretKind } from '../../../../src/runtime/client/kinds.ts';
import { mergePatch } from '../../../../src/runtime/client/patch.ts';
import { setCondition } from '../../../../src/runtime/conditions/object-conditions.ts';
import { createOrUpdate } from '../../../../src/runtime/controllerutil/create-or-update.ts';
import { setControllerReference } from '../../../../src/runtime/owner/owner-references.ts';
import { requeue } from '../../../../src/runtime/reconcile/result.ts';
import { WidgetKind, type Widget } from '../../controller/support.ts';
import { namespace, reportFailure, reported, ringShardManager, runShard } from './ring-shard.ts';

const mgr = await ringShardManager();
mgr
  .controller()
  .for(WidgetKind)
  .owns(ConfigMapKind)
  .owns(SecretKind)
  .sharded()
  .withOptions({ maxConcurrentReconciles: 4 })
  .complete(
    reported(async (req, signal) => {
      const widget = await mgr.client.get(WidgetKind, req, { signal });
      if (!widget) return {};
      try {
        await ensureChildren(widget);
        await setDegraded(widget, 'False', 'Reconciled', '', signal);
        return {};
      } catch (err) {
        // As the generated controller: a conflict only means what it read was stale.
        if (isConflict(err)) return requeue();
        reportFailure(req.name, err);
        const message = err instanceof Error ? err.message : String(err);
        mgr.events.event(widget, 'Warning', 'ReconcileFailed', 'Reconcile', message);
        await setDegraded(widget, 'True', 'ReconcileFailed', message, signal).catch(() => undefined);
        throw err;
      }
    }),
  );

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

/** The Widget's Degraded condition, written to its status (a merge patch) when it changed. */
async function setDegraded(
  widget: Widget,
  status: 'True' | 'False',
  reason: string,
  message: string,
  signal: AbortSignal,
): Promise<void> {
  const before = structuredClone(widget.status);
  setCondition(widget, { type: 'Degraded', status, reason, message });
  if (isDeepStrictEqual(before, widget.status)) return;
  await mgr.client.status().patch(widget, mergePatch({ status: widget.status }), { signal });
}

await runShard(mgr);
