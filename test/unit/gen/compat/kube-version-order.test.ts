import assert from 'node:assert/strict';
import { it } from 'node:test';
import { compareKubeVersions } from '../../../../src/gen/compat/kube-version-order.ts';

it('orders versions as Kubernetes ranks them: stability, then number; other names below, reversed', () => {
  const names = ['v2', 'v1', 'v1beta2', 'foo', 'v1alpha1', 'v10', 'v2alpha1', 'v1beta1', 'bar'];
  assert.deepEqual(names.sort(compareKubeVersions), [
    'foo',
    'bar',
    'v1alpha1',
    'v2alpha1',
    'v1beta1',
    'v1beta2',
    'v1',
    'v2',
    'v10',
  ]);
});
