import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crdManifestGenerator } from '../../../../src/gen/crd/index.ts';
import { generateManifests } from '../../../../src/gen/manifests.ts';
import type { Diagnostic } from '../../../../src/markers/index.ts';

const fixture = (name: string): string =>
  new URL(`../../../../fixtures/warnings/${name}/`, import.meta.url).pathname;

function warningsOf(root: string, maxDescLen?: number): Diagnostic[] {
  const warnings: Diagnostic[] = [];
  generateManifests({
    root,
    generators: [crdManifestGenerator],
    generatorVersion: 'v0.0.0-test',
    maxDescLen,
    onWarning: (warning) => warnings.push(warning),
  });
  return warnings;
}

test('a CRD past 256 KiB is warned about, at its kind, until its descriptions are dropped', () => {
  // A CronJob kind embedding a Job template, in two versions, as Kubernetes' own CronJob.
  const [warning, ...rest] = warningsOf(fixture('large-crd'));
  assert.deepEqual(rest, []);
  assert.equal(warning?.code, 'TSOP3003');
  assert.equal(warning.severity, 'warning');
  assert.deepEqual(warning.location, { file: 'src/api/v1/cronjob.types.ts', line: 16, column: 18 });
  assert.match(
    warning.message,
    /^CRD cronjobs\.batch\.example\.org is 660 KiB as JSON: a client-side `kubectl apply -f` copies it into an annotation, past the API server's 256 KiB limit/,
  );
  assert.deepEqual(warningsOf(fixture('large-crd'), 0), []);
});

test('a CRD within 10 % of etcd’s 1.5 MiB limit is warned about', () => {
  const warnings = warningsOf(fixture('near-etcd-limit'));
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]?.message ?? '', /is 1425 KiB as JSON, within 10 % of etcd's 1\.5 MiB limit/);
});
