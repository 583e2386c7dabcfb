import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { knownTypeNames, knownTypeSchema } from '../../../src/gen/crd/known-types/index.ts';
import { runControllerGen } from '../../support/controller-gen.ts';

const goModule = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'known-types', 'go');

test('the shipped known types are what controller-gen emits today (else: npm run gen:known-types)', async () => {
  const output = await mkdtemp(join(tmpdir(), 'tsoperator-known-types-'));
  try {
    const { crdDir } = await runControllerGen(goModule, output);
    const [file] = await readdir(crdDir);
    assert.ok(file, 'controller-gen wrote a CRD');
    const crd = load(await readFile(join(crdDir, file), 'utf8')) as {
      spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: { properties: object } } } } }[] };
    };
    const emitted = crd.spec.versions[0]?.schema.openAPIV3Schema.properties.spec.properties as Record<
      string,
      unknown
    >;
    assert.deepEqual(knownTypeNames(), Object.keys(emitted).sort());
    for (const name of knownTypeNames()) assert.deepEqual(knownTypeSchema(name), emitted[name], name);
  } finally {
    await rm(output, { recursive: true, force: true });
  }
});
