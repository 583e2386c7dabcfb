import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { ConfigMapKind, LeaseKind } from '../../../src/runtime/client/kinds.ts';
import type { Manager } from '../../../src/runtime/manager/manager.ts';
import { HashRing } from '../../../src/runtime/sharding/hash-ring.ts';
import { ringKeyOf } from '../../../src/runtime/sharding/ring-key.ts';
import { shardAssignmentPath } from '../../../src/runtime/sharding/shard-assignment-webhook.ts';
import { shardAssignmentWebhookConfiguration } from '../../../src/runtime/sharding/shard-assignment-webhook-configuration.ts';
import { shardLabel } from '../../../src/runtime/sharding/shard-labels.ts';
import { WebhookServer } from '../../../src/runtime/webhook/webhook-server.ts';
import { eventually, eventuallyTrue } from '../../support/eventually.ts';
import { runInBackground, testManager, WidgetKind, type Widget } from '../controller/support.ts';
import { ringEnvironment } from './ring-environment.ts';

const NAMESPACE = 'assigned';
const RING = 'widgets';
const SHARD = shardLabel(RING);
const SHARDS = ['shard-a', 'shard-b'];
/** Short enough for a test, in client-go's proportions. */
const LEASE = { leaseDuration: 4000, renewDeadline: 3000, retryPeriod: 300 };

describe('the shard-assignment webhook on the API server', () => {
  const managers = new Map<string, Manager>();
  const stops: (() => Promise<void>)[] = [];
  const reconciled = new Map<string, string>();

  after(async () => {
    await Promise.all(stops.map((stop) => stop()));
  });
  const api = ringEnvironment(NAMESPACE);
  before(async () => {
    for (const name of SHARDS) {
      const registry = new Registry();
      const mgr = await testManager(api.env, {
        namespace: NAMESPACE,
        leaderElection: true,
        leaderElectionId: 'widgets-sharder',
        leaderElectionNamespace: NAMESPACE,
        ...LEASE,
        registry,
        webhookServer: new WebhookServer({ port: 0, host: '127.0.0.1', registry }),
        sharding: { ring: RING, shardName: name, assignmentWebhook: true },
      });
      mgr
        .controller()
        .for(WidgetKind)
        .owns(ConfigMapKind)
        .sharded()
        .complete({
          reconcile: (req) => {
            reconciled.set(req.name, name);
            return Promise.resolve({});
          },
        });
      managers.set(name, mgr);
      stops.push(runInBackground(mgr).stop);
    }
    await eventuallyTrue(async () => {
      const leases = await api.client.direct().listAll(LeaseKind, { namespace: NAMESPACE });
      return SHARDS.every((s) => leases.some((l) => l.metadata?.name === s && l.spec?.holderIdentity === s));
    }, 'both shards to hold their Leases');
  });

  /** The shard replica that does not run the sharder: its webhook assigns from the Leases alone. */
  async function follower(): Promise<Manager> {
    const lease = await api.client.direct().get(LeaseKind, { namespace: NAMESPACE, name: 'widgets-sharder' });
    const name = SHARDS.find((s) => s !== lease?.spec?.holderIdentity) ?? 'shard-b';
    const mgr = managers.get(name);
    assert.ok(mgr);
    return mgr;
  }

  it('labels each Widget with the shard the ring hashes it to as it is created, and never written again', async () => {
    const mgr = await follower();
    const configuration = shardAssignmentWebhookConfiguration({
      ring: RING,
      kinds: [{ kind: WidgetKind, controlled: [ConfigMapKind] }],
      clientConfig: mgr.webhookServer.clientConfig(shardAssignmentPath(RING)),
    });
    await api.client.create(configuration);
    const ring = new HashRing(SHARDS);
    // The configuration reaches the API server's webhook plugin a moment after it is stored.
    await eventuallyTrue(async () => {
      const probe = await api.client.create<Widget>({
        apiVersion: WidgetKind.apiVersion,
        kind: WidgetKind.kind,
        metadata: { generateName: 'probe-', namespace: NAMESPACE, labels: {} },
      });
      await api.client.delete(probe);
      return (await webhookCalls(mgr)) > 0;
    }, 'the API server to call the webhook');
    const versions = new Map<string, string | undefined>();
    for (let i = 0; i < 20; i++) {
      const created = await api.client.create<Widget>({
        apiVersion: WidgetKind.apiVersion,
        kind: WidgetKind.kind,
        metadata: { name: `w-${i}`, namespace: NAMESPACE },
        spec: { size: 1 },
      });
      versions.set(`w-${i}`, created.metadata?.resourceVersion);
      const shard = created.metadata?.labels?.[SHARD];
      assert.equal(shard, ring.shardFor(ringKeyOf(WidgetKind, created)), `w-${i} comes back on its shard`);
    }
    await eventuallyTrue(
      () => Array.from({ length: 20 }, (_, i) => `w-${i}`).every((n) => reconciled.has(n)),
      'every Widget reconciled',
    );
    for (let i = 0; i < 20; i++) {
      const w = await api.client.direct().get(WidgetKind, { namespace: NAMESPACE, name: `w-${i}` });
      assert.equal(reconciled.get(`w-${i}`), w?.metadata?.labels?.[SHARD], `w-${i} reconciled on its shard`);
      assert.equal(w?.metadata?.resourceVersion, versions.get(`w-${i}`), `w-${i} was not written again`);
    }
  });

  it('leaves an object whose name is still to be generated to the sharder, which labels it', async () => {
    const created = await api.client.create<Widget>({
      apiVersion: WidgetKind.apiVersion,
      kind: WidgetKind.kind,
      metadata: { generateName: 'gen-', namespace: NAMESPACE },
    });
    assert.equal(created.metadata?.labels?.[SHARD], undefined);
    const shard = await eventually(async () => {
      const w = await api.client
        .direct()
        .get(WidgetKind, { namespace: NAMESPACE, name: created.metadata?.name ?? '' });
      return w?.metadata?.labels?.[SHARD];
    }, 'the sharder to label it');
    assert.ok(SHARDS.includes(shard), `${shard} is a live shard`);
  });
});

/** Calls the API server made to the webhook server of `mgr`, from its metrics. */
async function webhookCalls(mgr: Manager): Promise<number> {
  const page = await (await fetch(`${mgr.metricsUrl ?? ''}/metrics`)).text();
  const line = page
    .split('\n')
    .find(
      (l) =>
        l.startsWith('controller_runtime_webhook_requests_total{') && l.includes(shardAssignmentPath(RING)),
    );
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}
