import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crdManifestGenerator } from '../../../../src/gen/crd/index.ts';
import { generateManifests } from '../../../../src/gen/manifests.ts';
import type { Diagnostic } from '../../../../src/markers/index.ts';
import { formatDiagnostic } from '../../../../src/markers/index.ts';

const root = new URL('../../../../fixtures/warnings/examples/', import.meta.url).pathname;

test('an example its schema refuses is a warning at its marker; the CRD is still written', () => {
  const warnings: Diagnostic[] = [];
  const files = generateManifests({
    root,
    generators: [crdManifestGenerator],
    generatorVersion: 'v0.0.0-test',
    onWarning: (warning) => warnings.push(warning),
  });
  assert.equal(files.length, 1);
  assert.match(files[0]?.content ?? '', /example: toolong/);
  assert.deepEqual(warnings.map(formatDiagnostic), [
    'src/api/v1/thing_types.ts:7:6 - warning TSOP2006: example "toolong" does not validate against its schema: should be at most 3 chars long (the API server does not check examples)',
  ]);
});
