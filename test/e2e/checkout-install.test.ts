import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../support/cli.ts';
import { runIn, tsoperatorIn } from '../support/generated-project.ts';

// Before tsoperator is on the npm registry, a user runs it from a checkout: the project it makes must
// install as it is, with no tarball to pack by hand (an npm install of `^0.1.0` answers 404).
test('init run from a checkout makes a project whose npm install takes that checkout', async () => {
  const root = await mkdtemp(join(tmpdir(), 'tsoperator-checkout-'));
  try {
    const project = join(root, 'webapp-operator');
    await mkdir(project);
    const output = await tsoperatorIn(project, ['init', '--domain', 'example.org']);
    assert.match(output, /^note: tsoperator runs from the checkout .*, not from the npm registry/m);
    const pkg = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    assert.equal(pkg.devDependencies['tsoperator'], `file:${repoRoot}`);

    await runIn(project, 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline']);

    assert.equal(await realpath(join(project, 'node_modules', 'tsoperator')), await realpath(repoRoot));
    const version = await runIn(project, join(project, 'node_modules', '.bin', 'tsoperator'), ['--version']);
    const { version: expected } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as {
      version: string;
    };
    assert.equal(version.trim(), expected);
    const envtest = await runIn(project, process.execPath, [
      '--input-type=module',
      '-e',
      "const m = await import('tsoperator/envtest'); console.log(typeof m.startEnvironment);",
    ]);
    assert.equal(envtest.trim(), 'function');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
