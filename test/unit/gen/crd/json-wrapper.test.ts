import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { generateCrds, type JSONSchemaProps } from '../../../../src/gen/crd/index.ts';
import { lintApi } from '../../../../src/lint/index.ts';
import { createMarkerRegistry, DiagnosticList } from '../../../../src/markers/index.ts';

/*
 * `Json<T>` (the runtime's type of T as read from the API server, timestamps as strings) is how a
 * CRD field embeds a client-node type honestly: its schema must be T's, exactly.
 */
const GROUP_VERSION = `// +groupName=batch.example.org
export const version = 'v1';
`;

const TYPES = `import type { V1JobTemplateSpec, V1Toleration } from '@kubernetes/client-node';
import type * as k8s from '@kubernetes/client-node';
import type { Json, Json as AsRead, ObjectMeta } from '../../runtime/index.ts';

export interface TimerSpec {
  plain: V1JobTemplateSpec;
  honest: Json<V1JobTemplateSpec>;
  plainList?: V1Toleration[];
  honestList?: Json<V1Toleration>[];
  honestArray?: Array<AsRead<k8s.V1Toleration>>;
}

// +kubebuilder:object:root=true
export interface Timer {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: TimerSpec;
}
`;

function specOf(root: string): Record<string, JSONSchemaProps> {
  const diagnostics = new DiagnosticList();
  const crds = generateCrds({
    root,
    registry: createMarkerRegistry(),
    diagnostics,
    generatorVersion: 'v0.0.0',
  });
  diagnostics.throwIfErrors();
  const schema = crds[0]?.spec.versions[0]?.schema?.openAPIV3Schema;
  const spec = schema?.properties?.['spec']?.properties;
  assert.ok(spec, 'the CRD has a spec schema');
  return spec;
}

describe('the runtime Json<T> wrapper in API types', () => {
  const root = mkdtempSync(join(tmpdir(), 'json-wrapper-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'src/api/v1'), { recursive: true });
  writeFileSync(join(root, 'src/api/v1/groupversion-info.ts'), GROUP_VERSION);
  writeFileSync(join(root, 'src/api/v1/timer.types.ts'), TYPES);

  it('gives Json<T> the schema of T, in a field, an array and under an alias', () => {
    const spec = specOf(root);
    assert.ok(spec['plain']?.properties?.['spec'], 'V1JobTemplateSpec has its known schema');
    assert.deepEqual(spec['honest'], spec['plain']);
    assert.ok(spec['plainList']?.items?.properties?.['tolerationSeconds']);
    assert.deepEqual(spec['honestList'], spec['plainList']);
    assert.deepEqual(spec['honestArray'], spec['plainList']);
  });

  it('is linted as T: the same findings for the wrapped fields as for the plain ones', () => {
    const config = { enable: [], disable: [], lintersConfig: {}, source: '' };
    const findings = lintApi(root, config).findings.map((f) => f.message);
    const about = (field: string): string[] =>
      findings.filter((m) => m.includes(field)).map((m) => m.replace(field, '<field>'));
    assert.ok(about('plain ').length > 0, 'the plain field has findings to compare with');
    assert.deepEqual(about('honest '), about('plain '));
    assert.deepEqual(about('honestList'), about('plainList'));
  });
});
