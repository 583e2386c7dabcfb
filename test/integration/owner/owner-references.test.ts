import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { V1ConfigMap, V1Secret } from '@kubernetes/client-node';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { SecretKind } from '../../../src/runtime/client/kinds.ts';
import {
  getControllerOf,
  setControllerReference,
  setOwnerReference,
} from '../../../src/runtime/owner/owner-references.ts';

let env: Environment;
let client: Client;
before(async () => {
  env = await startEnvironment();
  client = newClient({ kubeConfig: env.kubeConfig });
});
after(async () => {
  await env.stop();
});

test('the API server accepts owner references made by setControllerReference and setOwnerReference', async () => {
  const owner = await client.create<V1ConfigMap>({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'owner', namespace: 'default' },
  });
  const other = await client.create<V1ConfigMap>({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'other-owner', namespace: 'default' },
  });
  const child: V1Secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'child', namespace: 'default' },
  };
  setControllerReference(owner, child);
  setOwnerReference(other, child);
  await client.create(child);

  const stored = await client.get(SecretKind, { namespace: 'default', name: 'child' });
  assert.deepEqual(getControllerOf(stored ?? {}), {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    name: 'owner',
    uid: owner.metadata?.uid,
    blockOwnerDeletion: true,
    controller: true,
  });
  assert.deepEqual(
    stored?.metadata?.ownerReferences?.map((r) => r.name),
    ['owner', 'other-owner'],
  );
});
