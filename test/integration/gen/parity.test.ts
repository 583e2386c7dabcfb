import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { GENERATOR_ANNOTATION } from '../../../src/gen/crd/index.ts';
import { generateManifests } from '../../../src/gen/manifests.ts';
import { unifiedDiff } from '../../../src/gen/unified-diff.ts';
import { CONTROLLER_TOOLS_VERSION, runControllerGen } from '../../support/controller-gen.ts';
import { assertSameManifests } from '../../support/manifest-comparison.ts';

// Each fixtures/parity/<case> holds one API twice: a Go module for controller-gen and the
// TypeScript a tsoperator project would hold. Both must yield the same manifests: equal as parsed
// objects first (failures name each differing field), then byte for byte (failures show a diff).

/** The annotation controller-gen signs its CRDs with, where ours carry GENERATOR_ANNOTATION. */
const CONTROLLER_GEN_ANNOTATION = 'controller-gen.kubebuilder.io/version';

const parityRoot = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'parity');

/** Manifest texts by path relative to the project root (`config/crd/bases/<group>_<plural>.yaml`, ...). */
type Manifests = Map<string, string>;

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
      for (const [path, text] of expected) {
        const ours = actual.get(path) ?? '';
        assertSameManifests(parseDocuments(ours), parseDocuments(text), `${name}: ${path}`);
        assert.equal(
          ours,
          text,
          `${name}: ${path} has other bytes than controller-gen's:\n${unifiedDiff(path, text, ours)}`,
        );
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
    manifests.set(`config/crd/bases/${file}`, await readFile(join(crdDir, file), 'utf8'));
  if (existsSync(roleFile)) manifests.set('config/rbac/role.yaml', await readFile(roleFile, 'utf8'));
  if (existsSync(webhookFile))
    manifests.set('config/webhook/manifests.yaml', await readFile(webhookFile, 'utf8'));
  return manifests;
}

function tsoperatorManifests(projectDir: string): Manifests {
  const files = generateManifests({ root: projectDir, generatorVersion: CONTROLLER_TOOLS_VERSION });
  // Our CRDs say tsoperator wrote them where controller-gen's say controller-gen did.
  const signed = (text: string) =>
    text.replaceAll(`${GENERATOR_ANNOTATION}:`, `${CONTROLLER_GEN_ANNOTATION}:`);
  return new Map(files.map((file) => [file.path, signed(file.content)]));
}

function parseDocuments(text: string): unknown[] {
  return loadAll(text).filter((doc) => doc !== null);
}
