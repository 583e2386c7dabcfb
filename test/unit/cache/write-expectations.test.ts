import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubernetesObject } from '@kubernetes/client-node';
import { parseLabelSelector } from '../../../src/runtime/cache/label-selector-parser.ts';
import { isAtOrAfter } from '../../../src/runtime/cache/resource-version.ts';
import { WriteExpectations, type ExpectationView } from '../../../src/runtime/cache/write-expectations.ts';

const obj = (name: string, resourceVersion: string, uid = 'u1'): KubernetesObject => ({
  metadata: { namespace: 'ns', name, resourceVersion, uid },
});
const view = (stored: Record<string, KubernetesObject>, progress = ''): ExpectationView => ({
  get: (key) => stored[key],
  progressOf: () => progress,
});

describe('resource versions', () => {
  it('compare as the decimal integers the API server makes them', () => {
    assert.equal(isAtOrAfter('10', '9'), true);
    assert.equal(isAtOrAfter('9', '10'), false);
    assert.equal(isAtOrAfter('42', '42'), true);
    assert.equal(isAtOrAfter(undefined, '1'), false);
    assert.equal(isAtOrAfter('abc', 'abd'), false, 'opaque versions only compare equal');
  });
});

describe('WriteExpectations', () => {
  it('holds a write until the store has it or has read past it, then drops it', () => {
    const writes = new WriteExpectations();
    writes.note('ns/a', obj('a', '20'), false);
    assert.equal(writes.settle('ns/a', view({ 'ns/a': obj('a', '19') }, '19')), false);
    assert.equal(writes.settle('ns/a', view({ 'ns/a': obj('a', '20') }, '20')), true);
    assert.equal(writes.size, 0);
    writes.note('ns/b', obj('b', '30'), false);
    assert.equal(
      writes.settle('ns/b', view({}, '31')),
      true,
      'gone again since: progress past the write is enough',
    );
  });

  it('holds a delete until the key is gone or holds another object', () => {
    const writes = new WriteExpectations();
    writes.note('ns/a', obj('a', '5', 'old'), true);
    assert.equal(writes.settle('ns/a', view({ 'ns/a': obj('a', '5', 'old') }, '99')), false);
    assert.equal(writes.settle('ns/a', view({ 'ns/a': obj('a', '100', 'new') })), true);
  });

  it('holds a write out of the selectors until the object is gone or the store has read past the write', () => {
    const writes = new WriteExpectations();
    writes.noteLeft('ns/a', obj('a', '5'), obj('a', '7'));
    assert.equal(writes.settle('ns/a', view({ 'ns/a': obj('a', '5') }, '6')), false);
    assert.equal(
      writes.settle('ns/a', view({ 'ns/a': obj('a', '8') }, '8')),
      true,
      'back in the selectors since: progress past the write is enough',
    );
    writes.noteLeft('ns/b', obj('b', '5'), obj('b', '7'));
    writes.note('ns/b', obj('b', '9'), false);
    assert.equal(writes.settle('ns/b', view({ 'ns/b': obj('b', '6') }, '6')), false);
    assert.equal(writes.settle('ns/b', view({ 'ns/b': obj('b', '9') }, '9')), true);
  });

  it('settles all writes of a namespace for a list', () => {
    const writes = new WriteExpectations();
    writes.note('ns/a', obj('a', '5'), false);
    writes.note('other/b', { metadata: { namespace: 'other', name: 'b', resourceVersion: '9' } }, false);
    assert.equal(writes.settleAll(view({}, '6'), { namespace: 'ns' }), true);
    assert.equal(writes.settleAll(view({}, '6')), false);
    assert.equal(writes.size, 1);
  });

  it('holds a list only for the writes its label selector could show, written or stored', () => {
    const writes = new WriteExpectations();
    const labelled = (name: string, rv: string, labels: Record<string, string>): KubernetesObject => ({
      metadata: { namespace: 'ns', name, resourceVersion: rv, uid: name, labels },
    });
    writes.note('ns/blue', labelled('blue', '10', { team: 'blue' }), false);
    writes.note('ns/turned-red', labelled('turned-red', '11', { team: 'red' }), false);
    writes.note('ns/red', labelled('red', '12', { team: 'red' }), false);
    const stored = view({ 'ns/turned-red': labelled('turned-red', '3', { team: 'blue' }) }, '9');
    const blue = { labels: parseLabelSelector('team=blue') };
    const green = { labels: parseLabelSelector('team=green') };
    assert.equal(writes.settleAll(stored, green), true, 'no write concerns team=green');
    assert.equal(writes.settleAll(stored, blue), false);
    const later = view({ 'ns/turned-red': labelled('turned-red', '3', { team: 'blue' }) }, '10');
    assert.equal(writes.settleAll(later, blue), false, 'the stored turned-red still shows as blue');
    assert.equal(writes.size, 2, 'blue was met and dropped; red was not looked at');
  });

  it('holds a read for the newest write of an object, whatever order the answers came in', () => {
    const writes = new WriteExpectations();
    writes.note('ns/a', obj('a', '213'), false);
    writes.note('ns/a', obj('a', '212'), false);
    assert.equal(writes.settle('ns/a', view({ 'ns/a': obj('a', '212') }, '212')), false);
    assert.equal(writes.settle('ns/a', view({ 'ns/a': obj('a', '213') }, '213')), true);
    assert.equal(writes.size, 0);
  });

  it('holds a read for a delete answered before an older write of the object', () => {
    const writes = new WriteExpectations();
    writes.note('ns/a', obj('a', '30', 'u1'), true);
    writes.note('ns/a', obj('a', '29', 'u1'), false);
    assert.equal(writes.settle('ns/a', view({ 'ns/a': obj('a', '29', 'u1') }, '29')), false);
    assert.equal(writes.settle('ns/a', view({}, '31')), true);
  });
});
