import { test } from 'node:test';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { GENERATOR_ANNOTATION } from '../../../src/gen/crd/index.ts';
import { generateManifests } from '../../../src/gen/manifests.ts';
import { CONTROLLER_TOOLS_VERSION, runControllerGen } from '../../support/controller-gen.ts';
import { assertSameManifests } from '../../support/manifest-comparison.ts';

// Each fixtures/parity/<case> holds one API twice: a Go module for controller-gen and the
// TypeScript a tsoperator project would hold. Both must yield the same manifests, field for field.

/** The annotation controller-gen signs its CRDs with. */
const CONTROLLER_GEN_ANNOTATION = 'controller-gen.kubebuilder.io/version';

const parityRoot = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'parity');

/** Manifests by path relative to the project root (`config/crd/bases/<group>_<plural>.yaml`, ...). */
type Manifests = Map<string, unknown[]>;

for (const name of (await readdir(parityRoot)).sort()) {
  test(`${name}: tsoperator writes what controller-gen writes`, async () => {
    const output = await mkdtemp(join(tmpdir(), `tsoperator-parity-${name}-`));
    try {
      const expected = await controllerGenManifests(join(parityRoot, name, 'go'), output);
      const actual = tsoperatorManifests(join(parityRoot, name, 'ts'));
      assertSameManifests(
        [...actual.keys()].sort(),
        [...expected.keys()].sort(),
        `${name}: the set of files`,
      );
      for (const [path, documents] of expected) {
        assertSameManifests(actual.get(path), documents, `${name}: ${path}`);
      }
    } finally {
      await rm(output, { recursive: true, force: true });
    }
  });
}

async function controllerGenManifests(goModule: string, output: string): Promise<Manifests> {
  const { crdDir, roleFile, webhookFile } = await runControllerGen(goModule, output);
  const manifests: Manifests = new Map();
  const crdFiles = existsSync(crdDir) ? (await readdir(crdDir)).sort() : [];
  for (const file of crdFiles)
    manifests.set(`config/crd/bases/${file}`, await yamlDocuments(join(crdDir, file)));
  if (existsSync(roleFile)) manifests.set('config/rbac/role.yaml', await yamlDocuments(roleFile));
  if (existsSync(webhookFile))
    manifests.set('config/webhook/manifests.yaml', await yamlDocuments(webhookFile));
  return manifests;
}

async function yamlDocuments(file: string): Promise<unknown[]> {
  return parseDocuments(await readFile(file, 'utf8'));
}

function tsoperatorManifests(projectDir: string): Manifests {
  const files = generateManifests({ root: projectDir, generatorVersion: CONTROLLER_TOOLS_VERSION });
  return new Map(
    files.map((file) => [file.path, parseDocuments(file.content).map(asControllerGenWouldSign)]),
  );
}

/** Our CRDs say tsoperator wrote them where controller-gen's say controller-gen did; the rest must match. */
function asControllerGenWouldSign(document: unknown): unknown {
  const metadata = (document as { metadata?: { annotations?: Record<string, string> } }).metadata;
  if (metadata?.annotations?.[GENERATOR_ANNOTATION] === undefined) return document;
  metadata.annotations = Object.fromEntries(
    Object.entries(metadata.annotations).map(([key, value]) => [
      key === GENERATOR_ANNOTATION ? CONTROLLER_GEN_ANNOTATION : key,
      value,
    ]),
  );
  return document;
}

function parseDocuments(text: string): unknown[] {
  return loadAll(text).filter((doc) => doc !== null);
}
