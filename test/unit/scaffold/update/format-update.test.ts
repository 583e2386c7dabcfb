import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatUpdate } from '../../../../src/scaffold/update/format-update.ts';

test('the plan names the commands replayed, each file merged, and the runtime in one line', () => {
  const text = formatUpdate({
    fromVersion: '0.0.9',
    toVersion: '0.1.0',
    updated: true,
    commands: [
      ['init', '--owner', "The crew's authors"],
      ['create', 'api', '--group', '', '--kind', 'Ship'],
    ],
    skipped: [],
    plan: {
      changes: [
        {
          action: 'overwrite',
          path: 'src/main.ts',
          content: '',
          note: "merged: your changes and tsoperator 0.1.0's",
        },
        { action: 'overwrite', path: 'src/runtime/index.ts', content: '' },
        { action: 'create', path: 'src/runtime/added.ts', content: '' },
        { action: 'delete', path: 'src/runtime/gone.ts' },
      ],
      conflicts: [],
    },
    manifests: [],
  });
  assert.equal(
    text,
    [
      'regenerated from PROJECT with each version by:',
      "  tsoperator init --owner 'The crew'\\''s authors'",
      "  tsoperator create api --group '' --kind Ship",
      'update from tsoperator 0.0.9 to 0.1.0:',
      'overwrite src/main.ts',
      "          merged: your changes and tsoperator 0.1.0's",
      "replace   src/runtime/ (tsoperator 0.1.0's: 2 files written, 1 deleted)",
      '',
    ].join('\n'),
  );
});

test('the plan says which commands the old version does not know, whose files are new', () => {
  const text = formatUpdate({
    fromVersion: '0.0.9',
    toVersion: '0.1.0',
    updated: true,
    commands: [['init'], ['edit', '--plugins', 'grafana']],
    skipped: [['edit', '--plugins', 'grafana']],
    plan: { changes: [], conflicts: [] },
    manifests: [],
  });
  assert.match(
    text,
    /^tsoperator 0\.0\.9 has no `edit --plugins grafana`: its files are taken as new in 0\.1\.0$/m,
  );
});
