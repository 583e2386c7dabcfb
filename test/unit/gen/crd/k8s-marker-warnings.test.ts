import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crdManifestGenerator } from '../../../../src/gen/crd/index.ts';
import { generateManifests } from '../../../../src/gen/manifests.ts';
import type { Diagnostic } from '../../../../src/markers/index.ts';
import { formatDiagnostic } from '../../../../src/markers/index.ts';

const FIXTURE = new URL('../../../../fixtures/warnings/k8s-markers/', import.meta.url).pathname;

test('unknown +k8s: markers are warned at their file:line:col; code-generator tags stay silent', () => {
  const warnings: Diagnostic[] = [];
  const files = generateManifests({
    root: FIXTURE,
    generators: [crdManifestGenerator],
    generatorVersion: 'v0.0.0-test',
    onWarning: (warning) => warnings.push(warning),
  });
  assert.deepEqual(warnings.map(formatDiagnostic), [
    'src/api/v1/thing_types.ts:9:6 - warning TSOP1007: marker +k8s:maxLength is read by no generator and changes nothing in the manifests',
    'src/api/v1/thing_types.ts:15:6 - warning TSOP1007: marker +k8s:eachVal is read by no generator and changes nothing in the manifests',
  ]);
  assert.deepEqual(
    files.map((file) => file.path),
    ['config/crd/bases/errors.example.org_things.yaml'],
  );
});
