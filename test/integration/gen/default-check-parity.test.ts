import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import type { CustomResourceDefinition, JSONSchemaProps } from '../../../src/gen/crd/index.ts';
import { crdManifestGenerator } from '../../../src/gen/crd/index.ts';
import { generateManifests } from '../../../src/gen/manifests.ts';
import { checkOnServer } from '../../../src/gen/server-check/check-on-server.ts';
import type { Diagnostic, JsonValue } from '../../../src/markers/index.ts';
import { DiagnosticsError } from '../../../src/markers/index.ts';
import { load } from 'js-yaml';

// The local check of a `default` claims "the API server would refuse the CRD". Each case here is
// judged twice: by the generator (does it report TSOP2005?) and by a real API server, which is given
// the CRD generated without the marker and with the same default written into the schema. Both must
// agree, and both must give the verdict the case states.

interface Case {
  readonly name: string;
  /** Types beside the spec; `DEFAULT` stands for the marker line when the default is inside them. */
  readonly types?: string;
  /** The spec's field; `DEFAULT` stands for its marker line. */
  readonly field: string;
  readonly value: JsonValue;
  /** The value in the marker grammar, where JSON is not it. */
  readonly marker?: string;
  /** Where the default goes in the version's schema, from the spec's properties. */
  readonly at: readonly string[];
  readonly verdict: 'accepted' | 'refused';
}

const INNER = `
export interface Inner {
  name?: string;
  // +kubebuilder:default=443
  port: int32;
}`;

const cases: readonly Case[] = [
  {
    name: 'an object whose required property has a default of its own, left out',
    types: INNER,
    field: 'DEFAULT\n  inner?: Inner;',
    value: {},
    at: ['inner'],
    verdict: 'refused',
  },
  {
    name: 'a list of such objects',
    types: INNER,
    field: 'DEFAULT\n  inners?: Inner[];',
    value: [{ name: 'a' }],
    marker: '{{name: "a"}}',
    at: ['inners'],
    verdict: 'refused',
  },
  {
    name: 'a map of such objects',
    types: INNER,
    field: 'DEFAULT\n  byName?: Record<string, Inner>;',
    value: { a: {} },
    at: ['byName'],
    verdict: 'refused',
  },
  {
    name: 'the same object with its required property written out',
    types: INNER,
    field: 'DEFAULT\n  inner?: Inner;',
    value: { port: 443 },
    at: ['inner'],
    verdict: 'accepted',
  },
  {
    name: 'a default inside a map’s values, which the API server does not check',
    types: 'export interface Slot {\n  // +kubebuilder:validation:Minimum=1\n  DEFAULT\n  size?: int32;\n}',
    field: 'slots?: Record<string, Slot>;',
    value: 0,
    at: ['slots', 'additionalProperties', 'size'],
    verdict: 'accepted',
  },
  ...(
    [
      ['0.01', 0.07, 'accepted'],
      ['0.1', 0.3, 'accepted'],
      ['0.1', 0.35, 'refused'],
      ['1.5', 4, 'accepted'],
      ['2.5', 7.5, 'accepted'],
      ['2.5', 6.5, 'refused'],
    ] as const
  ).map(([factor, value, verdict]): Case => ({
    name: `${value} against MultipleOf=${factor}`,
    field: `// +kubebuilder:validation:MultipleOf=${factor}\n  DEFAULT\n  ratio?: number;`,
    value,
    at: ['ratio'],
    verdict,
  })),
  {
    name: 'an integer that is not a multiple',
    field: '// +kubebuilder:validation:MultipleOf=3\n  DEFAULT\n  count?: int32;',
    value: 7,
    at: ['count'],
    verdict: 'refused',
  },
  {
    name: 'an embedded resource whose type lists neither apiVersion nor kind',
    types: 'export interface Data {\n  data?: Record<string, string>;\n}',
    field: '// +kubebuilder:validation:EmbeddedResource\n  DEFAULT\n  object?: Data;',
    value: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } },
    at: ['object'],
    verdict: 'accepted',
  },
  {
    name: 'an embedded resource without apiVersion and kind',
    types: 'export interface Data {\n  data?: Record<string, string>;\n}',
    field: '// +kubebuilder:validation:EmbeddedResource\n  DEFAULT\n  object?: Data;',
    value: { data: { a: 'b' } },
    at: ['object'],
    verdict: 'refused',
  },
  ...(
    [
      ['^.*$', 'a\rb', 'accepted'],
      ['^.*$', 'a\nb', 'refused'],
      ['^\\S+$', 'a\u00a0b', 'accepted'],
      ['^\\S+$', 'a b', 'refused'],
      ['^[\\s]+$', '\u00a0', 'refused'],
      ['^[a-z]+$', 'Upper', 'refused'],
    ] as const
  ).map(([pattern, value, verdict]): Case => ({
    name: `${JSON.stringify(value).replaceAll('\u00a0', '\\u00a0')} against the pattern ${pattern}`,
    field: `// +kubebuilder:validation:Pattern=\`${pattern}\`\n  DEFAULT\n  text?: string;`,
    value,
    at: ['text'],
    verdict,
  })),
  ...(
    [
      ['mac', '02:00:5e:10:00:00:00:01', 'accepted'],
      ['mac', '0200.5e10.0000', 'accepted'],
      ['mac', '02:00:5e:10:00', 'refused'],
      ['mac', '02:00-5e:10:00:00', 'refused'],
      ['email', 'John <john@example.com>', 'accepted'],
      ['hostname', 'münchen.de', 'accepted'],
      ['hostname', '-a.example.org', 'refused'],
      ['ipv4', '010.0.0.1', 'accepted'],
      ['ipv4', '::ffff:1.2.3.4', 'accepted'],
      ['ipv4', '1.2.3', 'refused'],
      ['ipv4', '::1', 'refused'],
      ['ipv6', '::ffff:1.2.3.4', 'accepted'],
      ['cidr', '10.0.0.0/08', 'accepted'],
      ['cidr', '10.0.0.0/33', 'refused'],
      ['date', '0001-01-01', 'accepted'],
      ['date', '2023-02-29', 'refused'],
      ['date-time', '2024-01-01t10:00:00.5+01:00', 'accepted'],
      ['date-time', '2024-01-01 10:00:00Z', 'refused'],
      ['byte', '', 'refused'],
      ['byte', 'YWJj', 'accepted'],
      ['uuid', 'not-a-uuid', 'refused'],
    ] as const
  ).map(([format, value, verdict]): Case => ({
    name: `${JSON.stringify(value)} as format ${format}`,
    field: `// +kubebuilder:validation:Format=${format}\n  DEFAULT\n  text?: string;`,
    value,
    at: ['text'],
    verdict,
  })),
];

const SOURCE = (c: Case, marker: string) => `import type { ObjectMeta, int32 } from '../../runtime/index.ts';
${(c.types ?? '').replace('DEFAULT', marker)}

/** ThingSpec is the spec. */
export interface ThingSpec {
  ${c.field.replace('DEFAULT', marker)}
}

// +kubebuilder:object:root=true

/** Thing is a kind. */
export interface Thing {
  apiVersion: string;
  kind: string;
  metadata?: ObjectMeta;
  spec?: ThingSpec;
}
`;

async function writeProject(root: string, source: string): Promise<void> {
  const api = join(root, 'src', 'api', 'v1');
  await mkdir(api, { recursive: true });
  await writeFile(join(api, 'groupversion_info.ts'), '// +groupName=parity.example.org\n');
  await writeFile(join(api, 'thing_types.ts'), source);
}

function generate(root: string, warnings: Diagnostic[] = []) {
  return generateManifests({
    root,
    generators: [crdManifestGenerator],
    generatorVersion: 'v0.0.0-test',
    onWarning: (warning) => warnings.push(warning),
  });
}

describe('a default is refused locally exactly when the API server refuses it', () => {
  let env: Environment;
  let dir = '';
  before(async () => {
    env = await startEnvironment();
    dir = await mkdtemp(join(tmpdir(), 'tsoperator-default-parity-'));
  });
  after(async () => {
    await env?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  cases.forEach((c, index) => {
    it(c.name, async () => {
      const marker = `// +kubebuilder:default=${c.marker ?? JSON.stringify(c.value)}`;
      const withMarker = join(dir, `${index}-local`);
      await writeProject(withMarker, SOURCE(c, marker));
      let local: 'accepted' | 'refused' = 'accepted';
      try {
        generate(withMarker);
      } catch (err) {
        if (!(err instanceof DiagnosticsError)) throw err;
        assert.ok(
          err.diagnostics.every((d) => d.severity === 'warning' || d.code === 'TSOP2005'),
          err.message,
        );
        local = 'refused';
      }

      const withoutMarker = join(dir, `${index}-server`);
      await writeProject(withoutMarker, SOURCE(c, ''));
      const [file] = generate(withoutMarker);
      assert.ok(file);
      const crd = load(file.content) as CustomResourceDefinition;
      let node = crd.spec.versions[0]?.schema?.openAPIV3Schema?.properties?.['spec'] as JSONSchemaProps;
      for (const step of c.at)
        node = (
          step === 'additionalProperties' ? node.additionalProperties : node.properties?.[step]
        ) as JSONSchemaProps;
      node.default = c.value;
      const refusals = await checkOnServer({
        files: [{ path: file.path, content: JSON.stringify(crd) }],
        schemaSites: new Map(),
        target: 'cluster',
        env: { KUBECONFIG: env.admin.kubeconfigPath },
      });
      const server = refusals.length > 0 ? 'refused' : 'accepted';

      assert.equal(server, c.verdict, `the API server: ${refusals.map((r) => r.message).join('\n')}`);
      assert.equal(local, c.verdict, 'the local check');
    });
  });
});
