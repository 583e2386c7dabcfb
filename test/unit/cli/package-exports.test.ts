import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { repoRoot } from '../../support/cli.ts';

const run = promisify(execFile);

interface PackageJson {
  bin: Record<string, string>;
  /** `types` is absent for a preload (`tsoperator/compile-cache`), which exports nothing. */
  exports: Record<string, { types?: string; default: string }>;
}

const packageJson = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as PackageJson;

test('every file package.json points at, bin and exports, is in the packed package', async () => {
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot });
  const [packed] = JSON.parse(stdout) as { files: { path: string }[] }[];
  const files = new Set(packed?.files.map((file) => file.path));
  const targets = [
    ...Object.values(packageJson.bin),
    ...Object.values(packageJson.exports).flatMap((entry) => [entry.types ?? entry.default, entry.default]),
  ].map((path) => path.replace(/^\.\//, ''));
  assert.deepEqual(
    targets.filter((path) => !files.has(path)),
    [],
  );
});

test('a project that depends on tsoperator imports the runtime from it, and envtest', async () => {
  const project = await mkdtemp(join(tmpdir(), 'tsoperator-imports-'));
  try {
    await mkdir(join(project, 'node_modules'));
    await symlink(repoRoot, join(project, 'node_modules', 'tsoperator'), 'dir');
    await writeFile(join(project, 'package.json'), '{ "type": "module" }\n');
    const script = [
      "const root = await import('tsoperator');",
      "const runtime = await import('tsoperator/runtime');",
      "const envtest = await import('tsoperator/envtest');",
      'console.log(typeof root.done, typeof runtime.defineKind, typeof envtest.startEnvironment);',
    ].join('\n');
    await writeFile(join(project, 'imports.js'), script);
    const { stdout } = await run(process.execPath, ['imports.js'], { cwd: project });
    assert.equal(stdout, 'function function function\n');
  } finally {
    await rm(project, { recursive: true, force: true });
  }
});

test('no module of the built package imports a .ts file: a lazy import tsc left unrewritten fails at run time', async () => {
  const built = await readdir(join(repoRoot, 'dist'), { recursive: true });
  const unrewritten: string[] = [];
  for (const path of built.filter((name) => name.endsWith('.js'))) {
    const source = await readFile(join(repoRoot, 'dist', path), 'utf8');
    for (const match of source.matchAll(/\bimport\(\s*['"`]([^'"`]+\.ts)['"`]\s*\)/g))
      unrewritten.push(`${path}: ${match[1]}`);
  }
  assert.deepEqual(unrewritten, []);
});
