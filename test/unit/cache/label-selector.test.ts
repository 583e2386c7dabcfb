import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchesLabels, parseLabelSelector } from '../../../src/runtime/cache/label-selector.ts';

describe('label selectors', () => {
  const matches = (selector: string, labels?: Record<string, string>): boolean =>
    matchesLabels(parseLabelSelector(selector), labels);

  it('reads equality, inequality, set and existence terms as the API server does', () => {
    assert.deepEqual(parseLabelSelector('a=1, b==2,c!=3,d in (x, y),e notin (z),f,!g'), [
      { key: 'a', op: 'in', values: ['1'] },
      { key: 'b', op: 'in', values: ['2'] },
      { key: 'c', op: 'notin', values: ['3'] },
      { key: 'd', op: 'in', values: ['x', 'y'] },
      { key: 'e', op: 'notin', values: ['z'] },
      { key: 'f', op: 'exists', values: [] },
      { key: 'g', op: '!', values: [] },
    ]);
  });

  it('matches only labels that meet every requirement', () => {
    assert.equal(matches('app=web,tier in (fe,be)', { app: 'web', tier: 'fe' }), true);
    assert.equal(matches('app=web,tier in (fe,be)', { app: 'web', tier: 'db' }), false);
    assert.equal(matches('app!=web', {}), true, 'a missing label is "not equal"');
    assert.equal(matches('canary', { canary: '' }), true);
    assert.equal(matches('!canary', { canary: 'yes' }), false);
    assert.equal(matches('', undefined), true, 'the empty selector matches everything');
  });

  it('rejects a malformed term', () => {
    assert.throws(() => parseLabelSelector('a in x'), /Invalid label selector term "a in x"/);
  });
});
