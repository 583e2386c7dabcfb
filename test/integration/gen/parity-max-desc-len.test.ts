import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GENERATOR_ANNOTATION } from '../../../src/gen/crd/index.ts';
import { crdManifestGenerator } from '../../../src/gen/crd/index.ts';
import { generateManifests } from '../../../src/gen/manifests.ts';
import { unifiedDiff } from '../../../src/gen/unified-diff.ts';
import { CONTROLLER_TOOLS_VERSION, runControllerGen } from '../../support/controller-gen.ts';

// `crd.maxDescLen` (PROJECT) and `manifests --max-desc-len` are controller-gen's crd:maxDescLen:
// for the same limit, the same CRDs, byte for byte. The cases carry long descriptions of their
// own and of Kubernetes' types (topology embeds core types), cut at sentence ends, at spaces, and
// in the middle of a word.

const parityRoot = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'parity');
// multibyte-desc: limits that cut inside a 3-byte and a 4-byte character, where Go writes one U+FFFD
// per byte of the cut character.
const CASES: readonly (readonly [string, readonly number[]])[] = [
  ['topology', [0, 40]],
  ['validation', [0, 40]],
  ['colon-equals', [0, 40]],
  ['multibyte-desc', [5, 10, 11, 14]],
];

for (const [name, limits] of CASES) {
  for (const maxDescLen of limits) {
    test(`${name}, maxDescLen=${maxDescLen}: tsoperator writes what controller-gen writes`, async () => {
      const output = await mkdtemp(join(tmpdir(), `tsoperator-maxdesclen-${name}-`));
      try {
        const { crdDir } = await runControllerGen(join(parityRoot, name, 'go'), output, { maxDescLen });
        const ours = generateManifests({
          root: join(parityRoot, name, 'ts'),
          generators: [crdManifestGenerator],
          generatorVersion: CONTROLLER_TOOLS_VERSION,
          maxDescLen,
        });
        const theirs = (await readdir(crdDir)).sort();
        assert.deepEqual(
          ours.map((file) => file.path),
          theirs.map((file) => `config/crd/bases/${file}`),
        );
        for (const file of theirs) {
          const expected = await readFile(join(crdDir, file), 'utf8');
          const actual = (ours.find((f) => f.path.endsWith(`/${file}`))?.content ?? '').replaceAll(
            `${GENERATOR_ANNOTATION}:`,
            'controller-gen.kubebuilder.io/version:',
          );
          assert.equal(actual, expected, unifiedDiff(file, expected, actual));
        }
      } finally {
        await rm(output, { recursive: true, force: true });
      }
    });
  }
}

test('the PROJECT file’s crd.maxDescLen is the default, and --max-desc-len overrides it', async () => {
  const root = await mkdtemp(join(tmpdir(), 'tsoperator-maxdesclen-project-'));
  try {
    const { cp } = await import('node:fs/promises');
    await cp(join(parityRoot, 'topology', 'ts', 'src'), join(root, 'src'), { recursive: true });
    const generate = (maxDescLen?: number) =>
      generateManifests({ root, generators: [crdManifestGenerator], generatorVersion: 'v0', maxDescLen })
        .map((file) => file.content)
        .join('');
    const whole = generate();
    const project = [
      'domain: example.org',
      'layout:',
      '- typescript.tsoperator.io/v1',
      'plugins:',
      '  typescript.tsoperator.io/v1:',
      '    crd:',
      '      maxDescLen: 0',
      '    license: none',
      '    namespaced: false',
      'projectName: topology',
      'version: "3"',
      '',
    ].join('\n');
    await writeFile(join(root, 'PROJECT'), project);
    assert.equal(generate(), generate(0));
    assert.doesNotMatch(generate(), /description:/);
    assert.equal(generate(-1), whole);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
