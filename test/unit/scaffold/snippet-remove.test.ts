import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { insertAtMarker } from '../../../src/scaffold/marker-insert.ts';
import { removeSnippet } from '../../../src/scaffold/snippet-remove.ts';

const MAIN = 'a();\n  // +tsoperator:scaffold:controllers\n';

describe('removeSnippet', () => {
  it('takes out what insertAtMarker put in, whatever the indentation', () => {
    const inserted = insertAtMarker(MAIN, 'controllers', 'register(b);\nregister(c);');
    assert.equal(inserted.kind, 'inserted');
    const text = inserted.kind === 'inserted' ? inserted.text : '';
    assert.deepEqual(removeSnippet(text, 'register(b);\nregister(c);'), { kind: 'removed', text: MAIN });
  });

  it('keeps the lines around it, the user lines that moved it away from the marker included', () => {
    const text = 'a();\nregister(b);\nmine();\n// +tsoperator:scaffold:controllers\n';
    assert.deepEqual(removeSnippet(text, 'register(b);'), {
      kind: 'removed',
      text: 'a();\nmine();\n// +tsoperator:scaffold:controllers\n',
    });
  });

  it('takes a multi-line snippet only where all its lines follow each other', () => {
    const text = '- path: a.yaml\nother: 1\n  target:\n';
    assert.deepEqual(removeSnippet(text, '- path: a.yaml\n  target:'), { kind: 'absent' });
  });

  it('with sameWhen, a single line in another form is the snippet too', () => {
    const text = 'new WebAppReconciler(mgr.client).setup(mgr);\nb();\n';
    const result = removeSnippet(
      text,
      'new WebAppReconciler(mgr.client, mgr.events).setup(mgr);',
      'new WebAppReconciler(',
    );
    assert.deepEqual(result, { kind: 'removed', text: 'b();\n' });
    assert.deepEqual(removeSnippet(text, 'new Other(mgr);'), { kind: 'absent' });
  });
});
