import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergePatchFrom } from '../../../src/runtime/client/patch.ts';

describe('mergePatchFrom', () => {
  it('sets what changed, nulls what went away, and replaces arrays whole', () => {
    const before = {
      metadata: { name: 'a', labels: { x: '1', y: '2' } },
      spec: { list: [1, 2], same: true },
    };
    const after = { metadata: { name: 'a', labels: { x: '1', z: '3' } }, spec: { list: [1], same: true } };
    assert.deepEqual(mergePatchFrom(before, after), {
      type: 'merge',
      body: { metadata: { labels: { y: null, z: '3' } }, spec: { list: [1] } },
    });
  });

  it('carries the original resourceVersion under optimistic locking', () => {
    const before = { metadata: { name: 'a', resourceVersion: '7' }, data: { k: 'v' } };
    assert.deepEqual(mergePatchFrom(before, before, { optimisticLock: true }).body, {
      metadata: { resourceVersion: '7' },
    });
  });
});
