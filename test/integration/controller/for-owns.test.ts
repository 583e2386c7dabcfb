import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { mergePatch } from '../../../src/runtime/client/patch.ts';
import type { Client } from '../../../src/runtime/client/client.ts';
import type { Request } from '../../../src/runtime/reconcile/request.ts';
import type { Result } from '../../../src/runtime/reconcile/result.ts';
import type { Predicate } from '../../../src/runtime/predicate/predicate.ts';
import { eventually } from '../../support/eventually.ts';
import {
  runInBackground,
  testManager,
  uniqueNamespace,
  WidgetKind,
  widgetsCrd,
  type Widget,
} from './support.ts';

const generationChanged: Predicate<Widget> = (e) =>
  e.type !== 'update' || e.object.metadata?.generation !== e.oldObject.metadata?.generation;

/**
 * Keeps a ConfigMap `<name>-child` holding the widget's size, and counts its reconciles in
 * status.reconciles: a status that changes on every reconcile would loop without a predicate.
 */
class WidgetReconciler {
  readonly #client: Client;
  /** Reconciles that wrote their status, by object. */
  readonly calls = new Map<string, number>();
  inFlight = 0;

  constructor(client: Client) {
    this.#client = client;
  }

  async reconcile(req: Request): Promise<Result> {
    this.inFlight += 1;
    try {
      const widget = await this.#client.get(WidgetKind, req);
      if (!widget) return {};
      const child: V1ConfigMap = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: `${req.name}-child`,
          namespace: req.namespace,
          ownerReferences: [
            {
              apiVersion: WidgetKind.apiVersion,
              kind: 'Widget',
              name: req.name,
              uid: widget.metadata?.uid ?? '',
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
        },
        data: { size: String(widget.spec?.size ?? 0) },
      };
      await this.#client.apply(child, { force: true });
      await this.#client.status().update({
        ...widget,
        status: {
          reconciles: (widget.status?.reconciles ?? 0) + 1,
          observedGeneration: widget.metadata?.generation ?? 0,
        },
      });
      // Counted once its status write succeeded: a write that meets a Conflict (the test's own spec
      // change racing it) is retried, and only the retry adds to status.reconciles.
      const key = `${req.namespace}/${req.name}`;
      this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
      return {};
    } finally {
      this.inFlight -= 1;
    }
  }
}

describe('a controller that owns ConfigMaps', () => {
  let env: Environment;
  let reconciler: WidgetReconciler;
  let client: Client;
  let stop: () => Promise<void>;
  let queueLength: () => number;

  before(async () => {
    env = await startEnvironment({ crdPaths: [widgetsCrd] });
    const mgr = await testManager(env);
    client = mgr.client;
    reconciler = new WidgetReconciler(mgr.client);
    const controller = mgr
      .controller()
      .for(WidgetKind, { predicates: [generationChanged] })
      .owns(ConfigMapKind)
      .complete(reconciler);
    queueLength = () => controller.queue.len;
    ({ stop } = runInBackground(mgr));
  });
  after(async () => {
    await stop();
    await env.stop();
  });

  async function createWidget(namespace: string, name: string, size: number): Promise<void> {
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    await client.create<Widget>({
      apiVersion: WidgetKind.apiVersion,
      kind: 'Widget',
      metadata: { name, namespace },
      spec: { size },
    });
  }

  const childData = async (namespace: string, name: string): Promise<string | undefined> =>
    (await client.direct().get(ConfigMapKind, { namespace, name: `${name}-child` }))?.data?.['size'];

  it('creates the owned child, and repairs it when it is edited or deleted by hand', async () => {
    const ns = uniqueNamespace('repair');
    await createWidget(ns, 'w', 3);
    await eventually(
      async () => ((await childData(ns, 'w')) === '3' ? true : undefined),
      'the child to be created',
    );
    const child = await client.direct().get(ConfigMapKind, { namespace: ns, name: 'w-child' });
    assert.equal(child?.metadata?.ownerReferences?.[0]?.controller, true);

    await client.update({ ...child, data: { size: 'tampered' } });
    await eventually(
      async () => ((await childData(ns, 'w')) === '3' ? true : undefined),
      'the edited child to be put back',
    );

    await client.delete(child);
    await eventually(
      async () => ((await childData(ns, 'w')) === '3' ? true : undefined),
      'the deleted child to be recreated',
    );
  });

  it('propagates a spec change, and its own status writes do not make it loop', async () => {
    const ns = uniqueNamespace('noloop');
    await createWidget(ns, 'w', 1);
    await eventually(async () => ((await childData(ns, 'w')) === '1' ? true : undefined), 'the child');
    const widget = await client.direct().get(WidgetKind, { namespace: ns, name: 'w' });
    assert.ok(widget);
    // A merge patch, as `kubectl patch` changes a spec: the controller may be writing the status of
    // the version read, which an update of that version would meet as a Conflict.
    await client.patch(widget, mergePatch({ spec: { size: 2 } }));
    const settled = await eventually(async () => {
      const latest = await client.direct().get(WidgetKind, { namespace: ns, name: 'w' });
      return latest?.status?.observedGeneration === 2 && (await childData(ns, 'w')) === '2'
        ? latest
        : undefined;
    }, 'the spec change to reach the child and the status');
    // Once the cache holds the last status write and the queue is idle, no reconcile is pending:
    // every status update event was filtered out by the generation predicate.
    await eventually(async () => {
      const cached = await client.get(WidgetKind, { namespace: ns, name: 'w' });
      return cached?.metadata?.resourceVersion === settled.metadata?.resourceVersion &&
        queueLength() === 0 &&
        reconciler.inFlight === 0
        ? true
        : undefined;
    }, 'the controller to go idle');
    assert.equal(reconciler.calls.get(`${ns}/w`), settled.status?.reconciles);
  });
});
