import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { crdManifestGenerator } from '../../../../src/gen/crd/index.ts';
import { generateManifests } from '../../../../src/gen/manifests.ts';
import { DiagnosticsError } from '../../../../src/markers/index.ts';

/*
 * Golden tests: fixtures/valid/<case> holds API types under src/api and the CRDs they must give under
 * config/; fixtures/invalid/<case> holds API types and expected.txt, the diagnostics they must give.
 * `UPDATE_GOLDEN=1` rewrites the expectations from the current output, for review in the diff.
 */
const FIXTURES = new URL('../../../../fixtures/', import.meta.url).pathname;
const UPDATE = process.env['UPDATE_GOLDEN'] === '1';
const VERSION = 'v0.0.0-golden';

function cases(kind: 'valid' | 'invalid'): string[] {
  const dir = join(FIXTURES, kind);
  return readdirSync(dir)
    .sort()
    .map((name) => join(dir, name));
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

function generate(root: string) {
  return generateManifests({ root, generators: [crdManifestGenerator], generatorVersion: VERSION });
}

describe('CRD golden files', () => {
  for (const root of cases('valid')) {
    it(`generates ${relative(FIXTURES, root)}`, () => {
      const files = generate(root);
      const expectedDir = join(root, 'config');
      if (UPDATE) {
        rmSync(expectedDir, { recursive: true, force: true });
        for (const file of files) {
          mkdirSync(dirname(join(root, file.path)), { recursive: true });
          writeFileSync(join(root, file.path), file.content);
        }
      }
      assert.deepEqual(
        files.map((f) => f.path),
        filesUnder(expectedDir).map((path) => join('config', path)),
      );
      for (const file of files)
        assert.equal(file.content, readFileSync(join(root, file.path), 'utf8'), file.path);
    });
  }
});

describe('CRD generation errors', () => {
  for (const root of cases('invalid')) {
    it(`reports ${relative(FIXTURES, root)}`, () => {
      const error = captureDiagnostics(() => generate(root));
      const expectedPath = join(root, 'expected.txt');
      if (UPDATE) writeFileSync(expectedPath, `${error.message}\n`);
      assert.equal(`${error.message}\n`, readFileSync(expectedPath, 'utf8'));
    });
  }
});

function captureDiagnostics(run: () => unknown): DiagnosticsError {
  try {
    run();
  } catch (error) {
    if (error instanceof DiagnosticsError) return error;
    throw error;
  }
  assert.fail('expected generation to report errors');
}
