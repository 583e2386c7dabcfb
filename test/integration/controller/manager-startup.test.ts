import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newClient } from '../../../src/runtime/client/client.ts';
import { EventKind } from '../../../src/runtime/client/kinds.ts';
import { MissingPermissionsError } from '../../../src/runtime/manager/permission-check.ts';
import { eventually } from '../../support/eventually.ts';
import { runInBackground, testManager, WidgetKind, widgetsCrd } from './support.ts';

describe('manager start-up', () => {
  let env: Environment;
  before(async () => {
    env = await startEnvironment();
  });
  after(() => env.stop());

  it('is not ready until its caches have synced, then is', async () => {
    // The Widget CRD is installed only later, so the cache cannot sync before then.
    const mgr = await testManager(env);
    mgr
      .controller()
      .for(WidgetKind)
      .complete({ reconcile: async () => ({}) });
    const run = runInBackground(mgr);
    try {
      const readyz = async (): Promise<number> => (await fetch(`${mgr.healthProbeUrl}/readyz`)).status;
      await eventually(async () => (mgr.healthProbeUrl ? true : undefined), 'the probe server');
      assert.equal((await fetch(`${mgr.healthProbeUrl}/healthz`)).status, 200);
      assert.equal(await readyz(), 500);
      await env.installCrds([widgetsCrd]);
      await eventually(
        async () => ((await readyz()) === 200 ? true : undefined),
        'readyz to pass after the caches sync',
      );
      const verbose = await (await fetch(`${mgr.healthProbeUrl}/readyz?verbose`)).text();
      assert.match(verbose, /\[\+\]informers ok/);
    } finally {
      await run.stop();
    }
  });

  it('refuses to start without a permission it needs, naming the rbac marker that grants it', async () => {
    await env.installCrds([widgetsCrd]);
    const rbac = env.kubeConfig.makeApiClient(RbacAuthorizationV1Api);
    await rbac.createClusterRole({
      body: {
        metadata: { name: 'widget-lister' },
        rules: [
          { apiGroups: ['ctrl.tsoperator.dev'], resources: ['widgets'], verbs: ['list'] },
          { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] },
        ],
      },
    });
    await rbac.createClusterRoleBinding({
      body: {
        metadata: { name: 'operator-widget-lister' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'widget-lister' },
        subjects: [{ kind: 'User', name: 'operator', apiGroup: 'rbac.authorization.k8s.io' }],
      },
    });
    const operator = await env.addUser('operator');
    const mgr = await testManager(env, {
      kubeConfig: operator.kubeConfig,
      permissions: [
        { group: '', resource: 'configmaps', verb: 'create' },
        { group: '', resource: 'configmaps', verb: 'get' },
      ],
    });
    mgr
      .controller()
      .for(WidgetKind)
      .complete({ reconcile: async () => ({}) });
    await assert.rejects(mgr.start(new AbortController().signal), (err: unknown) => {
      assert.ok(err instanceof MissingPermissionsError);
      assert.equal(
        err.message,
        [
          'The manager may not do what its controllers need, so it did not start. Missing permissions:',
          '  // +kubebuilder:rbac:groups=ctrl.tsoperator.dev,resources=widgets,verbs=watch',
          '  // +kubebuilder:rbac:groups=core,resources=configmaps,verbs=create',
          'Add these markers above the reconciler that needs them, run `tsoperator manifests`, and apply config/rbac (or `npm run deploy`).',
        ].join('\n'),
      );
      return true;
    });
  });

  it('records events through mgr.events, written before start returns', async () => {
    await env.installCrds([widgetsCrd]);
    const mgr = await testManager(env, { fieldManager: 'widget-operator' });
    const client = mgr.client;
    const recorder = mgr.events;
    let recorded = false;
    mgr
      .controller('eventful')
      .for(WidgetKind)
      .complete({
        reconcile: async (req) => {
          const widget = await client.get(WidgetKind, req);
          if (widget && !recorded) {
            recorder.event(widget, 'Normal', 'Reconciled', 'Reconcile', 'made what the widget asks for');
            recorded = true;
          }
          return {};
        },
      });
    const run = runInBackground(mgr);
    await newClient({ kubeConfig: env.kubeConfig }).create({
      apiVersion: WidgetKind.apiVersion,
      kind: 'Widget',
      metadata: { name: 'noisy', namespace: 'default' },
    });
    await eventually(async () => (recorded ? true : undefined), 'the reconcile to record an event');
    await run.stop();
    const events = await newClient({ kubeConfig: env.kubeConfig }).list(EventKind, { namespace: 'default' });
    const event = events.items.find((e) => e.regarding?.name === 'noisy');
    assert.equal(event?.reason, 'Reconciled');
    assert.equal(event?.reportingController, 'widget-operator');
    assert.equal(event?.note, 'made what the widget asks for');
  });

  it('watching one namespace, needs the rights to record events only there', async () => {
    await env.installCrds([widgetsCrd]);
    const rbac = env.kubeConfig.makeApiClient(RbacAuthorizationV1Api);
    await rbac.createNamespacedRole({
      namespace: 'default',
      body: {
        metadata: { name: 'widget-operator' },
        rules: [
          { apiGroups: ['ctrl.tsoperator.dev'], resources: ['widgets'], verbs: ['get', 'list', 'watch'] },
          { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] },
        ],
      },
    });
    await rbac.createNamespacedRoleBinding({
      namespace: 'default',
      body: {
        metadata: { name: 'widget-operator' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'widget-operator' },
        subjects: [{ kind: 'User', name: 'namespaced-operator', apiGroup: 'rbac.authorization.k8s.io' }],
      },
    });
    const operator = await env.addUser('namespaced-operator');
    const mgr = await testManager(env, { kubeConfig: operator.kubeConfig, namespace: 'default' });
    const recorder = mgr.events;
    let recorded = false;
    mgr
      .controller('namespaced')
      .for(WidgetKind)
      .complete({
        reconcile: async (req) => {
          const widget = await mgr.client.get(WidgetKind, req);
          if (widget) recorder.event(widget, 'Normal', 'Reconciled', 'Reconcile', 'seen in its namespace');
          recorded = widget !== undefined;
          return {};
        },
      });
    const run = runInBackground(mgr);
    try {
      await newClient({ kubeConfig: env.kubeConfig }).create({
        apiVersion: WidgetKind.apiVersion,
        kind: 'Widget',
        metadata: { name: 'namespaced', namespace: 'default' },
      });
      const stoppedEarly = run.done.then(() => {
        throw new Error('the manager stopped before reconciling');
      });
      await Promise.race([
        stoppedEarly,
        eventually(async () => (recorded ? true : undefined), 'the reconcile'),
      ]);
    } finally {
      await run.stop();
    }
  });

  it('keeps serving without controllers until it is stopped', async () => {
    const mgr = await testManager(env);
    const run = runInBackground(mgr);
    await eventually(async () => (mgr.healthProbeUrl ? true : undefined), 'the probe server');
    await eventually(
      async () => ((await fetch(`${mgr.healthProbeUrl}/readyz`)).status === 200 ? true : undefined),
      'readyz',
    );
    let ended = false;
    void run.done.then(() => (ended = true));
    // Still serving after the start-up work is over; ends only when stopped.
    assert.equal((await fetch(`${mgr.healthProbeUrl}/healthz`)).status, 200);
    assert.equal(ended, false);
    await run.stop();
    assert.equal(ended, true);
  });
});
