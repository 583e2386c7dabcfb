import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubernetesObject } from '@kubernetes/client-node';
import { AlreadyOwnedError } from '../../../src/runtime/owner/already-owned-error.ts';
import {
  getControllerOf,
  hasControllerReference,
  removeOwnerReference,
  setControllerReference,
  setOwnerReference,
} from '../../../src/runtime/owner/owner-references.ts';

const webapp = (name = 'shop', namespace = 'apps'): KubernetesObject => ({
  apiVersion: 'demo.example.org/v1',
  kind: 'WebApp',
  metadata: { name, namespace, uid: `uid-${name}` },
});
const deployment = (namespace = 'apps'): KubernetesObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'shop-web', namespace },
});

describe('setControllerReference', () => {
  it('adds a controller reference that blocks owner deletion', () => {
    const child = deployment();
    setControllerReference(webapp(), child);
    assert.deepEqual(child.metadata?.ownerReferences, [
      {
        apiVersion: 'demo.example.org/v1',
        kind: 'WebApp',
        name: 'shop',
        uid: 'uid-shop',
        blockOwnerDeletion: true,
        controller: true,
      },
    ]);
    assert.equal(hasControllerReference(child), true);
    assert.equal(getControllerOf(child)?.name, 'shop');
  });

  it('is idempotent, and replaces a reference to the same owner at another version', () => {
    const child = deployment();
    setControllerReference(webapp(), child);
    setControllerReference({ ...webapp(), apiVersion: 'demo.example.org/v2' }, child);
    assert.equal(child.metadata?.ownerReferences?.length, 1);
    assert.equal(child.metadata?.ownerReferences?.[0]?.apiVersion, 'demo.example.org/v2');
  });

  it('refuses a second controller, naming the first', () => {
    const child = deployment();
    setControllerReference(webapp('shop'), child);
    assert.throws(
      () => setControllerReference(webapp('other'), child),
      (err: unknown) =>
        err instanceof AlreadyOwnedError &&
        err.message === 'Object apps/shop-web is already owned by another WebApp controller shop',
    );
  });

  it('refuses an owner in another namespace', () => {
    assert.throws(() => setControllerReference(webapp(), deployment('other')), {
      message:
        "cross-namespace owner references are disallowed, owner's namespace apps, obj's namespace other",
    });
  });

  it('refuses a namespaced owner of a cluster-scoped object', () => {
    const clusterRole: KubernetesObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'r' },
    };
    assert.throws(() => setControllerReference(webapp(), clusterRole), {
      message: "cluster-scoped resource must not have a namespace-scoped owner, owner's namespace apps",
    });
  });

  it('lets a cluster-scoped owner own a namespaced object', () => {
    const owner: KubernetesObject = {
      apiVersion: 'demo.example.org/v1',
      kind: 'Tenant',
      metadata: { name: 't', uid: 'uid-t' },
    };
    const child = deployment();
    setControllerReference(owner, child);
    assert.equal(getControllerOf(child)?.kind, 'Tenant');
  });

  it('takes the owner type apart for list items, and refuses an owner without uid', () => {
    const child = deployment();
    const listed: KubernetesObject = { metadata: { name: 'shop', namespace: 'apps', uid: 'uid-shop' } };
    setControllerReference(listed, child, { apiVersion: 'demo.example.org/v1', kind: 'WebApp' });
    assert.equal(getControllerOf(child)?.kind, 'WebApp');
    assert.throws(
      () =>
        setControllerReference({ ...webapp(), metadata: { name: 'shop', namespace: 'apps' } }, deployment()),
      /has no uid/,
    );
    assert.throws(() => setControllerReference(listed, deployment()), /has no apiVersion and kind/);
  });
});

describe('setOwnerReference and removeOwnerReference', () => {
  it('adds plain owners beside a controller, and removes them', () => {
    const child = deployment();
    setControllerReference(webapp('shop'), child);
    setOwnerReference(webapp('other'), child);
    assert.deepEqual(
      child.metadata?.ownerReferences?.map((r) => [r.name, r.controller ?? false]),
      [
        ['shop', true],
        ['other', false],
      ],
    );
    removeOwnerReference(webapp('other'), child);
    assert.deepEqual(
      child.metadata?.ownerReferences?.map((r) => r.name),
      ['shop'],
    );
  });

  it('says so when the owner is not among the references', () => {
    assert.throws(() => removeOwnerReference(webapp(), deployment()), {
      message: 'Deployment apps/shop-web does not have any owner references',
    });
    const child = deployment();
    setOwnerReference(webapp('shop'), child);
    assert.throws(() => removeOwnerReference(webapp('other'), child), {
      message: 'Deployment apps/shop-web does not have an owner reference for WebApp apps/other',
    });
  });

  it('finds no controller on an object without owners', () => {
    assert.equal(hasControllerReference(deployment()), false);
    assert.equal(getControllerOf(deployment()), undefined);
  });
});
