import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { after, before, test } from 'node:test';
import { tsoperatorDependency } from '../../../src/scaffold/tsoperator-dependency.ts';

let root = '';
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'tsoperator-dependency-'));
});
after(() => rm(root, { recursive: true, force: true }));

/** A tsoperator package folder: a checkout has its build configuration, an installed package not. */
async function packageFolder(path: string, checkout: boolean): Promise<string> {
  const folder = join(root, path);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'package.json'), '{"name":"tsoperator","version":"0.1.0"}');
  if (checkout) await writeFile(join(folder, 'tsconfig.build.json'), '{}');
  return folder;
}

test('installed as a package (npx, global, a devDependency, another cache), a project takes the registry', async () => {
  for (const installed of [
    join('npx', 'node_modules', 'tsoperator'),
    join('deno', 'npm', 'registry.npmjs.org', 'tsoperator', '0.1.0'),
  ]) {
    const folder = await packageFolder(installed, false);
    assert.deepEqual(tsoperatorDependency('0.1.0', undefined, join(folder, 'package.json')), {
      spec: '^0.1.0',
    });
  }
});

test('run from a checkout, a project takes that checkout, which npm install links', async () => {
  const checkout = await packageFolder(join('src', 'tsoperator'), true);
  assert.deepEqual(tsoperatorDependency('0.1.0', undefined, join(checkout, 'package.json')), {
    spec: `file:${checkout.split(sep).join('/')}`,
    checkout,
  });
});

test('--tsoperator-dependency wins over both', async () => {
  const checkout = await packageFolder(join('work', 'tsoperator'), true);
  assert.deepEqual(tsoperatorDependency('0.1.0', '^0.1.0', join(checkout, 'package.json')), {
    spec: '^0.1.0',
  });
});
