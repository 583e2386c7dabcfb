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
    "src/api/v1/thing_types.ts:9:6 - warning TSOP1007: marker +k8s:maxLength is not read by CRD generation (tsoperator's or controller-gen's), only by Kubernetes' own generators (validation-gen reads the declarative-validation tags): it changes nothing in the CRD; a +kubebuilder:validation: marker would",
    "src/api/v1/thing_types.ts:15:6 - warning TSOP1007: marker +k8s:eachVal is not read by CRD generation (tsoperator's or controller-gen's), only by Kubernetes' own generators (validation-gen reads the declarative-validation tags): it changes nothing in the CRD; a +kubebuilder:validation: marker would",
    "src/api/v1/thing_types.ts:17:6 - warning TSOP1007: marker +k8s:validation:pattern is read by Kubernetes' openapi-gen, not by CRD generation (tsoperator's or controller-gen's): it changes nothing in the CRD; a +kubebuilder:validation: marker would",
  ]);
  assert.deepEqual(
    files.map((file) => file.path),
    ['config/crd/bases/errors.example.org_things.yaml'],
  );
});
