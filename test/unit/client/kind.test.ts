import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineKind, KindRegistry } from '../../../src/runtime/client/kind.ts';
import {
  ConfigMapKind,
  CustomResourceDefinitionKind,
  DeploymentKind,
  NamespaceKind,
  kindRegistry,
} from '../../../src/runtime/client/kinds.ts';
import { resourcePath, withQuery } from '../../../src/runtime/client/resource-path.ts';

describe('kinds', () => {
  it('derive group and version from apiVersion', () => {
    assert.deepEqual([DeploymentKind.group, DeploymentKind.version], ['apps', 'v1']);
    assert.deepEqual([ConfigMapKind.group, ConfigMapKind.version], ['', 'v1']);
    assert.equal(DeploymentKind.strategicMerge, true);
    assert.equal(CustomResourceDefinitionKind.strategicMerge, false);
  });

  it('are found by apiVersion and kind, and an unknown kind says how to describe it', () => {
    assert.equal(kindRegistry.kindOf({ apiVersion: 'apps/v1', kind: 'Deployment' }), DeploymentKind);
    const registry = new KindRegistry();
    const widget = defineKind(
      { apiVersion: 'demo.example.org/v1', kind: 'Widget', plural: 'widgets', namespaced: true },
      registry,
    );
    assert.equal(registry.kindOf({ apiVersion: 'demo.example.org/v1', kind: 'Widget' }), widget);
    assert.throws(
      () => registry.kindOf({ apiVersion: 'apps/v1', kind: 'Deployment' }),
      /Unknown kind apps\/v1 Deployment: .*defineKind\(\)/,
    );
  });
});

describe('resource paths', () => {
  it('address collections, objects and subresources in the core group and named groups', () => {
    assert.equal(resourcePath(ConfigMapKind, 'ns'), '/api/v1/namespaces/ns/configmaps');
    assert.equal(resourcePath(ConfigMapKind, undefined), '/api/v1/configmaps');
    assert.equal(
      resourcePath(DeploymentKind, 'ns', 'web', 'status'),
      '/apis/apps/v1/namespaces/ns/deployments/web/status',
    );
    assert.equal(resourcePath(NamespaceKind, 'ignored', 'ns'), '/api/v1/namespaces/ns');
  });

  it('leave out undefined and empty query values and encode the rest', () => {
    assert.equal(
      withQuery('/p', { labelSelector: 'a in (x,y)', limit: 5, continue: undefined, fieldSelector: '' }),
      '/p?labelSelector=a+in+%28x%2Cy%29&limit=5',
    );
    assert.equal(withQuery('/p', {}), '/p');
  });
});
