import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { installDeployments } from '../../../src/bundle/install-deployments.ts';
import type { ManifestObject } from '../../../src/deploy/manifest-object.ts';

function deployment(env: readonly Record<string, unknown>[]): ManifestObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'op-controller-manager' },
    spec: { template: { spec: { containers: [{ name: 'manager', image: 'op:v1', env }] } } },
  };
}

describe('installDeployments', () => {
  it("reads WATCH_NAMESPACE from OLM's target namespaces, not the Pod's own namespace", () => {
    const [strategy] = installDeployments([
      deployment([
        { name: 'LOG_LEVEL', value: 'info' },
        { name: 'WATCH_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      ]),
    ]);
    const containers = (strategy?.spec['template'] as { spec: { containers: { env: unknown[] }[] } }).spec
      .containers;
    assert.deepEqual(containers[0]?.env, [
      { name: 'LOG_LEVEL', value: 'info' },
      {
        name: 'WATCH_NAMESPACE',
        valueFrom: { fieldRef: { fieldPath: "metadata.annotations['olm.targetNamespaces']" } },
      },
    ]);
  });

  it('leaves a manager that watches all namespaces as it is', () => {
    const object = deployment([{ name: 'LOG_LEVEL', value: 'info' }]);
    const [strategy] = installDeployments([object]);
    assert.deepEqual(strategy?.spec, object['spec']);
  });
});
