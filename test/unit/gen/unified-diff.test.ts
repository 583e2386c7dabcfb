import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unifiedDiff } from '../../../src/gen/unified-diff.ts';

const lines = (from: number, to: number): string =>
  Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}`).join('\n') + '\n';

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    assert.equal(unifiedDiff('a.yaml', 'x\n', 'x\n'), '');
  });

  it('shows a change with three lines of context and its line numbers', () => {
    const before = lines(1, 10);
    const after = before.replace('line 5\n', 'line five\n');
    assert.equal(
      unifiedDiff('a.yaml', before, after),
      '--- a.yaml\n+++ a.yaml\n@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+line five\n line 6\n line 7\n line 8\n',
    );
  });

  it('starts a new hunk when changes are far apart', () => {
    const before = lines(1, 30);
    const after = before.replace('line 2\n', 'two\n').replace('line 28\n', 'twenty-eight\n');
    const headers = unifiedDiff('a.yaml', before, after)
      .split('\n')
      .filter((line) => line.startsWith('@@'));
    assert.deepEqual(headers, ['@@ -1,5 +1,5 @@', '@@ -25,6 +25,6 @@']);
  });

  it('diffs a new file against nothing', () => {
    assert.equal(
      unifiedDiff('new.yaml', '', 'a\nb\n'),
      '--- new.yaml\n+++ new.yaml\n@@ -0,0 +1,2 @@\n+a\n+b\n',
    );
  });
});
