import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubernetesObject } from '@kubernetes/client-node';
import { defineKind } from '../../../src/runtime/client/kind.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { HashRing } from '../../../src/runtime/sharding/hash-ring.ts';
import { ringKeyOf } from '../../../src/runtime/sharding/ring-key.ts';
import { shardAssignmentHandler } from '../../../src/runtime/sharding/shard-assignment-webhook.ts';
import type { AdmissionRequest, AdmissionResponse } from '../../../src/runtime/webhook/admission-review.ts';

const WebAppKind = defineKind({
  apiVersion: 'demo.example.org/v1',
  kind: 'WebApp',
  plural: 'webapps',
  namespaced: true,
});
const TenantKind = defineKind({
  apiVersion: 'demo.example.org/v1',
  kind: 'Tenant',
  plural: 'tenants',
  namespaced: false,
});
const LABEL = 'shard.alpha.sharding.timebertt.dev/webapp';
const ring = new HashRing(['pod-0', 'pod-1', 'pod-2']);
const handler = shardAssignmentHandler({
  ring: 'webapp',
  kinds: () => [
    { kind: WebAppKind, controlled: [ConfigMapKind] },
    { kind: TenantKind, controlled: [ConfigMapKind] },
  ],
  shards: () => ring,
});

function request(
  kind: { group: string; kind: string },
  object: KubernetesObject,
  operation = 'CREATE',
): AdmissionRequest {
  return {
    uid: 'u',
    kind: { ...kind, version: 'v1' },
    resource: { group: kind.group, version: 'v1', resource: `${kind.kind.toLowerCase()}s` },
    namespace: 'ns',
    operation: operation as AdmissionRequest['operation'],
    userInfo: {},
    object,
  };
}

function patchOf(res: AdmissionResponse): unknown {
  return res.patch === undefined ? undefined : JSON.parse(Buffer.from(res.patch, 'base64').toString());
}

describe('the shard-assignment webhook', () => {
  it("labels a created object of the ring's kind with the shard the ring hashes it to", async () => {
    const app = {
      apiVersion: WebAppKind.apiVersion,
      kind: 'WebApp',
      metadata: { name: 'shop', namespace: 'ns' },
    };
    const res = await handler(request({ group: 'demo.example.org', kind: 'WebApp' }, app));
    const shard = ring.shardFor(ringKeyOf(WebAppKind, app));
    assert.deepEqual(patchOf(res), [{ op: 'add', path: '/metadata/labels', value: { [LABEL]: shard } }]);
  });

  it('adds the label beside the labels an object has, escaping the slash in its key', async () => {
    const app = { metadata: { name: 'shop', labels: { team: 'a' } } };
    const res = await handler(request({ group: 'demo.example.org', kind: 'WebApp' }, app));
    const shard = ring.shardFor(ringKeyOf(WebAppKind, { metadata: { name: 'shop', namespace: 'ns' } }));
    assert.deepEqual(patchOf(res), [
      { op: 'add', path: '/metadata/labels/shard.alpha.sharding.timebertt.dev~1webapp', value: shard },
    ]);
  });

  it('puts a controlled object where its controlling owner hashes', async () => {
    const ownerReferences = [
      { apiVersion: WebAppKind.apiVersion, kind: 'WebApp', name: 'shop', uid: 'x', controller: true },
    ];
    const res = await handler(
      request({ group: '', kind: 'ConfigMap' }, { metadata: { name: 'shop-cm', ownerReferences } }),
    );
    const shard = ring.shardFor(ringKeyOf(WebAppKind, { metadata: { name: 'shop', namespace: 'ns' } }));
    assert.deepEqual(patchOf(res), [{ op: 'add', path: '/metadata/labels', value: { [LABEL]: shard } }]);
  });

  it('puts a namespaced object where its cluster-scoped owner hashes, without the namespace', async () => {
    const ownerReferences = [
      { apiVersion: TenantKind.apiVersion, kind: 'Tenant', name: 'globex', uid: 'x', controller: true },
    ];
    const res = await handler(
      request({ group: '', kind: 'ConfigMap' }, { metadata: { name: 'globex-cm', ownerReferences } }),
    );
    const shard = ring.shardFor(ringKeyOf(TenantKind, { metadata: { name: 'globex' } }));
    assert.deepEqual(patchOf(res), [{ op: 'add', path: '/metadata/labels', value: { [LABEL]: shard } }]);
  });

  it('admits unchanged what it cannot place: no name yet, no controlling ring owner, an update, a labelled object', async () => {
    const kind = { group: 'demo.example.org', kind: 'WebApp' };
    for (const req of [
      request(kind, { metadata: { generateName: 'shop-' } }),
      request({ group: '', kind: 'ConfigMap' }, { metadata: { name: 'loose' } }),
      request(kind, { metadata: { name: 'shop' } }, 'UPDATE'),
      request(kind, { metadata: { name: 'shop', labels: { [LABEL]: 'pod-9' } } }),
    ])
      assert.deepEqual(await handler(req), { allowed: true });
  });

  it('admits unchanged while the ring has no live shard', async () => {
    const empty = shardAssignmentHandler({
      ring: 'webapp',
      kinds: () => [{ kind: WebAppKind, controlled: [] }],
      shards: () => new HashRing([]),
    });
    assert.deepEqual(
      await empty(request({ group: 'demo.example.org', kind: 'WebApp' }, { metadata: { name: 'shop' } })),
      {
        allowed: true,
      },
    );
  });
});
