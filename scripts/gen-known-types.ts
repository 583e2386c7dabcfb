// Regenerates src/gen/crd/known-types/known-types.json: runs controller-gen on a Go kind whose
// fields are Kubernetes' own types and keeps the schema it emits for each, keyed by field name
// (the @kubernetes/client-node type name). Run with `npm run gen:known-types`.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { load } from 'js-yaml';
import { runControllerGen } from '../test/support/controller-gen.ts';
import { compactKnownTypes, expandKnownType } from '../src/gen/crd/known-types/known-type-references.ts';
import type { JsonSchemaObject } from '../src/gen/crd/known-types/known-type-references.ts';

const repo = join(import.meta.dirname, '..');
const goModule = join(repo, 'fixtures', 'known-types', 'go');
const dataFile = join(repo, 'src', 'gen', 'crd', 'known-types', 'known-types.json');

async function main(): Promise<void> {
  const output = await mkdtemp(join(tmpdir(), 'tsoperator-known-types-'));
  try {
    const { crdDir } = await runControllerGen(goModule, output);
    const [file] = await readdir(crdDir);
    if (!file) throw new Error(`controller-gen wrote no CRD for ${goModule}`);
    const schemas = specProperties(load(await readFile(join(crdDir, file), 'utf8')));
    const compact = compactKnownTypes(schemas);
    for (const name of Object.keys(schemas)) {
      if (!isDeepStrictEqual(expandKnownType(name, compact), schemas[name])) {
        throw new Error(`${name} does not expand back to the schema controller-gen emitted`);
      }
    }
    await writeFile(dataFile, `${JSON.stringify(sortKeys(compact), null, 1)}\n`);
    console.log(`wrote ${Object.keys(compact).length} known types to ${dataFile}`);
  } finally {
    await rm(output, { recursive: true, force: true });
  }
}

function specProperties(crd: unknown): Record<string, JsonSchemaObject> {
  const root = (crd as { spec: { versions: { schema: { openAPIV3Schema: JsonSchemaObject } }[] } }).spec
    .versions[0]?.schema.openAPIV3Schema;
  const spec = (root?.['properties'] as Record<string, JsonSchemaObject> | undefined)?.['spec'];
  return spec?.['properties'] as Record<string, JsonSchemaObject>;
}

/** Sorted keys keep the data file's diffs readable when a Kubernetes release changes a type. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

await main();
