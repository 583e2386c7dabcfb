import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchesFields, parseFieldSelector } from '../../../src/runtime/cache/field-selector.ts';

describe('field selectors', () => {
  const pod = {
    metadata: { name: 'web', namespace: 'prod' },
    spec: { nodeName: 'node-1' },
    status: { phase: 'Running' },
  };

  it('match equality and inequality on field paths, as the API server compares them: as strings', () => {
    assert.equal(matchesFields(parseFieldSelector('spec.nodeName=node-1'), pod), true);
    assert.equal(matchesFields(parseFieldSelector('spec.nodeName==node-2'), pod), false);
    assert.equal(
      matchesFields(parseFieldSelector('status.phase!=Pending,metadata.namespace=prod'), pod),
      true,
    );
    assert.equal(matchesFields(parseFieldSelector('status.phase!=Running'), pod), false);
  });

  it('read a missing field as the empty string', () => {
    assert.equal(matchesFields(parseFieldSelector('spec.serviceAccountName='), pod), true);
    assert.equal(matchesFields(parseFieldSelector('spec.missing.deeper!=x'), pod), true);
  });

  it('refuse a term that is not field=value or field!=value', () => {
    assert.throws(() => parseFieldSelector('spec.nodeName in (a,b)'), /is not field=value/);
  });
});
