import assert from 'node:assert/strict';
import { test } from 'node:test';
import { insertAtMarker } from '../../../src/scaffold/marker-insert.ts';

test('inserts above a // marker, indented as the marker', () => {
  const text = 'function main() {\n  a();\n  // +tsoperator:scaffold:controllers\n}\n';
  assert.deepEqual(insertAtMarker(text, 'controllers', 'b();'), {
    kind: 'inserted',
    text: 'function main() {\n  a();\n  b();\n  // +tsoperator:scaffold:controllers\n}\n',
  });
});

test('inserts above a # marker in YAML, keeping the snippet lines', () => {
  const text = 'resources:\n# +tsoperator:scaffold:crd-resources\n';
  assert.deepEqual(insertAtMarker(text, 'crd-resources', '- a.yaml\n- b.yaml'), {
    kind: 'inserted',
    text: 'resources:\n- a.yaml\n- b.yaml\n# +tsoperator:scaffold:crd-resources\n',
  });
});

test('does not insert a snippet that is already there', () => {
  const text = 'resources:\n- a.yaml\n# +tsoperator:scaffold:crd-resources\n';
  assert.deepEqual(insertAtMarker(text, 'crd-resources', '- a.yaml'), { kind: 'present' });
});

test('reports a missing marker, and does not take another marker for it', () => {
  const text = '// +tsoperator:scaffold:imports\n// +tsoperator:scaffold:controllers-extra\n';
  assert.deepEqual(insertAtMarker(text, 'controllers', 'b();'), { kind: 'no-marker' });
});

test('does not insert when a line starts with presentWhen: the registration in an older form', () => {
  const text = 'new WebAppReconciler(mgr.client).setup(mgr);\n// +tsoperator:scaffold:controllers\n';
  const snippet = 'new WebAppReconciler(mgr.client, mgr.events).setup(mgr);';
  assert.deepEqual(insertAtMarker(text, 'controllers', snippet, 'new WebAppReconciler('), {
    kind: 'present',
  });
  assert.equal(insertAtMarker(text, 'controllers', snippet, 'new CacheReconciler(').kind, 'inserted');
});
