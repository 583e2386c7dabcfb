import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { stripManagedFields } from '../../../src/runtime/cache/transform.ts';

describe('stripManagedFields', () => {
  it('drops managedFields and keeps every other metadata field, in order', () => {
    const cm: V1ConfigMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'a',
        namespace: 'ns',
        resourceVersion: '5',
        managedFields: [{ manager: 'kubectl', operation: 'Update' }],
        labels: { app: 'web' },
      },
      data: { k: 'v' },
    };
    const out = stripManagedFields(cm) as V1ConfigMap;
    assert.deepEqual(Object.keys(out.metadata ?? {}), ['name', 'namespace', 'resourceVersion', 'labels']);
    assert.deepEqual(out.metadata?.labels, { app: 'web' });
    assert.deepEqual(out.data, { k: 'v' });
  });

  it('leaves an object without managedFields as it is', () => {
    const cm: V1ConfigMap = { metadata: { name: 'a' } };
    const metadata = cm.metadata;
    assert.equal((stripManagedFields(cm) as V1ConfigMap).metadata, metadata);
  });
});
