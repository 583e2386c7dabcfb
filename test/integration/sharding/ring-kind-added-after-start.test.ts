// A sharded controller added after the manager started: the next leader's sharder caches its kind
// as it caches the others (its namespace, objects without a shard, metadata only).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import type { Manager } from '../../../src/runtime/manager/manager.ts';
import { leadingShard } from '../../../src/runtime/sharding/leading-shard.ts';
import { shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { runInBackground, testManager, WidgetKind } from '../controller/support.ts';
import { createWidgets } from './in-process-ring.ts';
import { ringEnvironment } from './ring-environment.ts';

const NAMESPACE = 'kind-after-start';
const RING = 'widgets';
const SHARD = shardLabel(RING);

describe('a ring kind added after the manager started', () => {
  const api = ringEnvironment(NAMESPACE);

  it("does not stop the next leader's sharder, with RBAC for the manager's namespace", async () => {
    const { env, client } = api;
    const user = await env.addUser('ns-operator');
    await client.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'all', namespace: NAMESPACE },
      rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
    });
    await client.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'all', namespace: NAMESPACE },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'all' },
      subjects: [{ kind: 'User', name: 'ns-operator', apiGroup: 'rbac.authorization.k8s.io' }],
    });
    await createWidgets(client, NAMESPACE, 'w', 10);
    const shard = async (name: string): Promise<Manager> => {
      const mgr = await testManager(env, {
        kubeConfig: user.kubeConfig,
        namespace: NAMESPACE,
        leaderElection: true,
        leaderElectionId: `${RING}-sharder`,
        leaderElectionNamespace: NAMESPACE,
        leaseDuration: 4000,
        renewDeadline: 2500,
        retryPeriod: 500,
        sharding: { ring: RING, shardName: name },
      });
      mgr
        .controller()
        .for(WidgetKind)
        .sharded()
        .complete({ reconcile: async () => ({}) });
      return mgr;
    };
    const widgetShards = async (): Promise<(string | undefined)[]> =>
      (await client.direct().listAll(WidgetKind, { namespace: NAMESPACE })).map(
        (w) => w.metadata?.labels?.[SHARD],
      );
    const a = runInBackground(await shard('a'));
    await eventuallyTrue(
      async () => (await leadingShard(client, NAMESPACE, `${RING}-sharder`, RING)) === 'a',
      'a to lead',
    );
    const mgrB = await shard('b');
    const b = runInBackground(mgrB);
    try {
      await eventuallyTrue(async () => {
        const on = await widgetShards();
        return on.includes('a') && on.includes('b') && on.every((s) => s !== undefined);
      }, 'the Widgets spread over a and b');
      // Added while b runs and waits for the leader lease.
      mgrB
        .controller()
        .for(ConfigMapKind)
        .sharded()
        .named('configmaps')
        .complete({ reconcile: async () => ({}) });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await a.stop();
      await eventuallyTrue(
        async () => (await leadingShard(client, NAMESPACE, `${RING}-sharder`, RING)) === 'b',
        'b to lead',
      );
      let on: (string | undefined)[] = [];
      const moved = await eventuallyTrue(
        async () => (on = await widgetShards()).every((s) => s === 'b'),
        "a's Widgets moved to b",
        15_000,
      ).then(
        () => true,
        () => false,
      );
      assert.ok(moved, `15 s after a stopped, the Widgets are on ${on.join(', ')}`);
    } finally {
      await b.stop().catch(() => undefined);
      await a.stop().catch(() => undefined);
    }
  });
});
