import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { execa } from 'execa';
import { load } from 'js-yaml';
import { resolveAssets, startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import type { CustomResourceDefinition } from '../../../src/gen/crd/index.ts';
import { crdManifestGenerator } from '../../../src/gen/crd/index.ts';
import { ANNOTATIONS_LIMIT, lastAppliedAnnotationsBytes } from '../../../src/gen/crd/crd-size.ts';
import { generateManifests } from '../../../src/gen/manifests.ts';
import type { Diagnostic } from '../../../src/markers/index.ts';

// The warning that a client-side `kubectl apply -f` would be refused (TSOP3003) must fire exactly when
// kubectl's apply is refused: the real kubectl (the envtest binaries') applies each CRD as a server
// dry run, one byte under and one byte over the API server's limit on annotations, with descriptions
// that Go's JSON encoder writes longer than JavaScript does.

const SOURCE = (description: string) => `import type { ObjectMeta } from '../../runtime/index.ts';

/** ThingSpec is the spec. */
export interface ThingSpec {
  /** ${description} */
  text?: string;
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

interface Generated {
  readonly crd: CustomResourceDefinition;
  readonly annotationsBytes: number;
  readonly warned: boolean;
}

async function generate(root: string, description: string): Promise<Generated> {
  const api = join(root, 'src', 'api', 'v1');
  await mkdir(api, { recursive: true });
  await writeFile(join(api, 'groupversion_info.ts'), '// +groupName=size.example.org\n');
  await writeFile(join(api, 'thing_types.ts'), SOURCE(description));
  const warnings: Diagnostic[] = [];
  const [file] = generateManifests({
    root,
    generators: [crdManifestGenerator],
    generatorVersion: 'v0.0.0-test',
    onWarning: (warning) => warnings.push(warning),
  });
  assert.ok(file);
  const crd = load(file.content) as CustomResourceDefinition;
  return {
    crd,
    annotationsBytes: lastAppliedAnnotationsBytes(crd),
    warned: warnings.some((w) => w.code === 'TSOP3003'),
  };
}

describe('the client-side apply warning', () => {
  let env: Environment;
  let kubectl = '';
  let dir = '';
  before(async () => {
    env = await startEnvironment();
    kubectl = join((await resolveAssets()).dir, 'kubectl');
    dir = await mkdtemp(join(tmpdir(), 'tsoperator-crd-size-'));
  });
  after(async () => {
    await env?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const texts = {
    'plain text': '',
    'text with <, >, & and line separators':
      '<'.repeat(300) + '>'.repeat(50) + '&'.repeat(50) + '\u2028'.repeat(40),
  };
  for (const [what, special] of Object.entries(texts)) {
    for (const over of [0, 1]) {
      it(`${what}, ${over === 0 ? 'at' : 'one byte past'} the limit: warned exactly when kubectl is refused`, async () => {
        const root = join(dir, `${what.length}-${over}`);
        // Each padding character is one byte of the annotation: find the padding that lands on the limit.
        const probe = await generate(`${root}-probe`, `${special}x`);
        const padding = ANNOTATIONS_LIMIT + over - probe.annotationsBytes + 1;
        const generated = await generate(root, `${special}${'x'.repeat(padding)}`);
        assert.equal(generated.annotationsBytes, ANNOTATIONS_LIMIT + over);
        // As JSON, which kubectl reads as it reads YAML.
        const file = join(root, 'crd.json');
        await writeFile(file, JSON.stringify(generated.crd));
        const applied = await execa(kubectl, ['apply', '-f', file, '--dry-run=server'], {
          env: { KUBECONFIG: env.admin.kubeconfigPath },
          reject: false,
        });
        const refused = applied.exitCode !== 0;
        if (refused) assert.match(applied.stderr, /metadata\.annotations: Too long/);
        assert.equal(refused, over === 1, applied.stderr);
        assert.equal(generated.warned, refused);
      });
    }
  }
});
