import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import { NAMESPACE_INDEX, Store } from '../../../src/runtime/cache/store.ts';

const pod = (namespace: string, name: string, nodeName?: string): V1Pod => ({
  metadata: { namespace, name },
  spec: { containers: [], ...(nodeName ? { nodeName } : {}) },
});
const names = (pods: V1Pod[]): string[] => pods.map((p) => p.metadata?.name ?? '').sort();

describe('Store', () => {
  it('indexes by namespace from the start', () => {
    const store = new Store<V1Pod>();
    store.set('a/p1', pod('a', 'p1'));
    store.set('b/p2', pod('b', 'p2'));
    assert.deepEqual(names(store.byIndex(NAMESPACE_INDEX, 'a')), ['p1']);
  });

  it('keeps user indexes current through set and delete, and fills a late index', () => {
    const store = new Store<V1Pod>();
    store.set('a/p1', pod('a', 'p1', 'n1'));
    store.addIndex('spec.nodeName', (p) => (p.spec?.nodeName ? [p.spec.nodeName] : []));
    store.set('a/p2', pod('a', 'p2', 'n1'));
    assert.deepEqual(names(store.byIndex('spec.nodeName', 'n1')), ['p1', 'p2']);
    const old = store.set('a/p1', pod('a', 'p1', 'n2'));
    assert.equal(old?.spec?.nodeName, 'n1');
    assert.deepEqual(names(store.byIndex('spec.nodeName', 'n1')), ['p2']);
    assert.deepEqual(names(store.byIndex('spec.nodeName', 'n2')), ['p1']);
    store.delete('a/p2');
    assert.deepEqual(store.byIndex('spec.nodeName', 'n1'), []);
    assert.equal(store.size, 1);
  });

  it('leaves itself as it was when an index function throws, and never calls one to remove', () => {
    const store = new Store<V1Pod>();
    let broken = false;
    store.addIndex('spec.nodeName', (p) => {
      if (broken) throw new Error('no node today');
      return p.spec?.nodeName ? [p.spec.nodeName] : [];
    });
    store.set('a/p1', pod('a', 'p1', 'n1'));
    broken = true;
    assert.throws(() => store.set('a/p1', pod('b', 'p1', 'n2')), {
      name: 'IndexFunctionError',
      index: 'spec.nodeName',
      message: 'index "spec.nodeName" failed on a/p1: no node today',
    });
    assert.throws(() => store.set('a/p2', pod('a', 'p2', 'n1')), /no node today/);
    assert.equal(store.get('a/p1')?.spec?.nodeName, 'n1', 'the stored version stays');
    assert.equal(store.has('a/p2'), false);
    assert.deepEqual(names(store.byIndex('spec.nodeName', 'n1')), ['p1']);
    assert.deepEqual(names(store.byIndex(NAMESPACE_INDEX, 'a')), ['p1'], 'no index half-written');
    assert.deepEqual(store.byIndex(NAMESPACE_INDEX, 'b'), []);
    assert.equal(store.delete('a/p1')?.metadata?.name, 'p1');
    assert.deepEqual(store.byIndex('spec.nodeName', 'n1'), []);
  });

  it('adds no index whose function throws on a stored object, nor one that returns no array', () => {
    const store = new Store<V1Pod>();
    store.set('a/p1', pod('a', 'p1', 'n1'));
    assert.throws(
      () =>
        store.addIndex('thrower', () => {
          throw new RangeError('no container');
        }),
      /index "thrower" failed on a\/p1/,
    );
    assert.throws(
      () => store.addIndex('bad', () => [][0] as unknown as string[]),
      /index "bad" failed on a\/p1/,
    );
    assert.equal(store.hasIndex('thrower') || store.hasIndex('bad'), false);
    store.set('a/p2', pod('a', 'p2'));
    assert.equal(store.size, 2, 'an index never added refuses nothing later');
  });

  it('says which index is missing', () => {
    assert.throws(() => new Store<V1Pod>().byIndex('spec.nodeName', 'n1'), /No index "spec.nodeName"/);
  });
});
