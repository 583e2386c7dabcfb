import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { conversionCode } from '../../../src/scaffold/webhook/conversion-code.ts';
import { readKindShapes, type KindShape } from '../../../src/scaffold/webhook/kind-shape.ts';
import { kindExamples } from '../../../src/scaffold/webhook/webhook-examples.ts';
import { replaceInterface } from '../../support/edit-types.ts';
import { createApi, inEmptyProjectFolder, initProject } from '../../support/scaffold-project.ts';

/** The shapes of WebApp v1 (and v2) after `specs` replaced the scaffolded spec bodies. */
async function webAppShapes(
  specs: { v1: string; v2?: string },
  image?: string,
  imports: readonly string[] = [],
): Promise<KindShape[]> {
  let shapes: KindShape[] = [];
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    const versions = specs.v2 === undefined ? ['v1'] : ['v1', 'v2'];
    for (const version of versions) {
      await createApi(dir, {
        group: 'demo',
        version,
        kind: 'WebApp',
        ...(image && version === 'v1' ? { image } : {}),
      });
      const body = version === 'v1' ? specs.v1 : specs.v2;
      const path = `src/api/${version}/webapp.types.ts`;
      if (body !== '') await replaceInterface(dir, path, 'WebAppSpec', body ?? '', imports);
    }
    const refs = versions.map((version) => ({
      typesPath: `src/api/${version}/webapp.types.ts`,
      qualifiedGroup: 'demo.example.org',
      version,
      kind: 'WebApp',
    }));
    shapes = readKindShapes(dir, refs).map((shape) => {
      assert.ok(shape, 'the kind is read');
      return shape;
    });
  });
  return shapes;
}

const EDITED = `
  // +kubebuilder:validation:MinLength=3
  image: string;
  title: string;
  // +kubebuilder:validation:Minimum=2
  // +kubebuilder:validation:Maximum=9
  // +optional
  replicas?: int32;
  // +kubebuilder:default=frontend
  // +optional
  tier?: 'frontend' | 'backend';
`;

describe('webhook examples follow the fields the kind has', () => {
  it('the scaffolded kind: spec.foo is defaulted and must not be empty', async () => {
    const [v1] = await webAppShapes({ v1: '' });
    const examples = kindExamples(v1, 'webApp');
    assert.deepEqual(examples.defaulting?.statements, [
      'webApp.spec ??= {};',
      "webApp.spec.foo ??= 'default';",
    ]);
    assert.equal(examples.validation?.read, 'webApp.spec?.foo');
    assert.equal(examples.objects?.invalidate?.('probe'), "(probe.spec ??= {}).foo = '';");
    assert.equal(examples.objects?.unsetDefaulted?.('probe'), 'delete probe.spec?.foo;');
  });

  it('an edited kind: the optional field without a CRD default, in its bounds; a string the schema lets be empty', async () => {
    const [v1] = await webAppShapes({ v1: EDITED });
    const examples = kindExamples(v1, 'webApp');
    assert.equal(examples.defaulting?.path, 'spec.replicas');
    assert.equal(examples.defaulting?.value, '2');
    // The spec has required fields, so `spec ??= {}` would not compile.
    assert.deepEqual(examples.defaulting?.statements, [
      'if (webApp.spec === undefined) return;',
      'webApp.spec.replicas ??= 2;',
    ]);
    assert.equal(examples.validation?.path, 'spec.title');
    assert.equal(examples.objects?.invalidate?.('invalid'), "if (invalid.spec) invalid.spec.title = '';");
    assert.equal(examples.objects?.unsetDefaulted?.('probe'), 'delete probe.spec?.replicas;');
  });

  it('a deploy-image kind: no field for an example, so the rule is on the name', async () => {
    const [v1] = await webAppShapes({ v1: '' }, 'nginx:1.27');
    const examples = kindExamples(v1, 'webApp');
    assert.equal(examples.defaulting, undefined);
    assert.equal(examples.validation, undefined);
    assert.equal(examples.nameRule?.read, "webApp.metadata?.name ?? ''");
    assert.equal(examples.objects?.unsetDefaulted, undefined);
    assert.equal(examples.objects?.nameRead('created'), 'created.metadata?.name');
  });

  // No value can be made up for a pattern: the test takes its objects from the kind's sample, and
  // tests the defaulter and the name rule all the same.
  it('a required field with a pattern: the test still has objects, from the sample', async () => {
    const [v1] = await webAppShapes({
      v1: '// +kubebuilder:validation:Pattern=`^v[0-9]+$`\n  release: string;\n  // +optional\n  suspend?: boolean;',
    });
    const examples = kindExamples(v1, 'webApp');
    assert.equal(examples.objects?.nameRead('created'), 'created.metadata?.name');
    assert.equal(examples.validation, undefined);
    assert.equal(examples.nameRule?.read, "webApp.metadata?.name ?? ''");
    assert.equal(examples.defaulting?.path, 'spec.suspend');
  });
});

describe('the webhook test checks what the defaulter and validator do as written', () => {
  it('a validator written before a second version keeps its rule in the test', async () => {
    const [v1, v2] = await webAppShapes({ v1: EDITED, v2: 'image: string;' });
    const fresh = kindExamples(v1, 'webApp', [v2]);
    // A new rule would not take title, which v2 lacks; the written one does, and the test follows it.
    assert.equal(fresh.validation, undefined);
    const validator = 'const title = webApp.spec?.title;\nif (title === undefined) return;';
    const written = kindExamples(v1, 'webApp', [v2], { validator });
    assert.equal(written.validation?.path, 'spec.title');
    assert.equal(written.nameRule, undefined);
  });

  it('a validator rewritten by its user: no rule the test could know of, so none is tested', async () => {
    const [v1] = await webAppShapes({ v1: EDITED });
    const examples = kindExamples(v1, 'webApp', [], { validator: 'return checkImage(obj);' });
    assert.equal(examples.validation, undefined);
    assert.equal(examples.nameRule, undefined);
  });

  it('the default is the one the defaulter writes, not one in a comment', async () => {
    const [v1] = await webAppShapes({ v1: EDITED });
    const defaulter = '    webApp.spec.replicas ??= 3;\n';
    assert.equal(kindExamples(v1, 'webApp', [], { defaulter }).defaulting?.value, '3');
    const commented = '    //     webApp.spec.replicas ??= ...;\n';
    assert.equal(kindExamples(v1, 'webApp', [], { defaulter: commented }).defaulting, undefined);
    // A constant is not in the test's scope: that default is left untested rather than uncompilable.
    const constant = '    webApp.spec.replicas ??= DEFAULT_REPLICAS;\n';
    assert.equal(kindExamples(v1, 'webApp', [], { defaulter: constant }).defaulting, undefined);
  });
});

describe('a conversion compiles whatever fields the versions have', () => {
  it('versions with the same fields: a copy', async () => {
    const [v1, v2] = await webAppShapes({ v1: '', v2: '' });
    assert.ok(v1 && v2);
    const code = conversionCode(
      { type: 'WebApp', version: 'v1', shape: v1 },
      { type: 'WebAppV2', version: 'v2', shape: v2 },
    );
    assert.equal(code.toHub, '{ ...spoke }');
    assert.equal(code.fromHub, '{ ...hub }');
    assert.deepEqual(code.notes, []);
    assert.equal(code.keepsSpoke, true);
  });

  it("fields only the hub has are lost on the way through the spoke, but the spoke's all come back", async () => {
    const [v1, v2] = await webAppShapes({ v1: EDITED, v2: 'image: string;\n  title: string;' });
    assert.ok(v1 && v2);
    const code = conversionCode(
      { type: 'WebApp', version: 'v1', shape: v1 },
      { type: 'WebAppV2', version: 'v2', shape: v2 },
    );
    assert.notDeepEqual(code.notes, []);
    assert.equal(code.keepsSpoke, true);
  });

  it('copies the fields both have, starts the others from their default or zero value, and says what is lost', async () => {
    const [v1, v2] = await webAppShapes({
      v1: EDITED,
      v2: 'image: string;\n  title: number;\n  // +optional\n  description?: string;',
    });
    assert.ok(v1 && v2);
    const code = conversionCode(
      { type: 'WebApp', version: 'v1', shape: v1 },
      { type: 'WebAppV2', version: 'v2', shape: v2 },
    );
    assert.equal(code.toHub, '{ ...spoke, spec: specToV1(spoke.spec) }');
    // v2's description and its number title do not come back from v1: the test cannot ask for that.
    assert.equal(code.keepsSpoke, false);
    assert.match(code.helpers.join('\n'), /return \{ image: spec\.image, title: '' \};/);
    assert.match(code.helpers.join('\n'), /return \{ image: spec\.image, title: 0 \};/);
    assert.deepEqual(code.notes, [
      "spec.title is of another type in v1 than in v2: converted from v2, it is set to ''; converted from v1, it is set to 0.",
      "spec.replicas is v1's only: it is lost on the way through v2.",
      "spec.tier is v1's only: it is lost on the way through v2.",
      "spec.description is v2's only: it is lost on the way through v1.",
    ]);
    assert.equal(code.usesMissing, false);
  });

  it('a required field of a type no value can be written for: the conversion throws, naming it', async () => {
    const [v1, v2] = await webAppShapes(
      {
        v1: '// +kubebuilder:validation:Pattern=`^a`\n  other: string;\n  resources: V1ResourceRequirements;',
        v2: '// +kubebuilder:validation:Pattern=`^a`\n  other: string;',
      },
      undefined,
      ["import type { V1ResourceRequirements } from '@kubernetes/client-node';"],
    );
    assert.ok(v1 && v2);
    const code = conversionCode(
      { type: 'WebApp', version: 'v1', shape: v1 },
      { type: 'WebAppV2', version: 'v2', shape: v2 },
    );
    assert.ok(code.usesMissing);
    assert.match(code.helpers.join('\n'), /resources: missing\('spec\.resources'\)/);
  });
});
