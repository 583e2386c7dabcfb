import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { repoRoot, runTsoperator } from '../../support/cli.ts';

const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string })
  .version;

it('prints its version', async () => {
  const result = await runTsoperator(['--version']);
  assert.deepEqual(result, { code: 0, stdout: `${version}\n`, stderr: '' });
});

it('prints help listing its commands', async () => {
  const result = await runTsoperator(['--help']);
  assert.equal(result.code, 0);
  assert.match(result.stdout, /^Usage: tsoperator \[options\] \[command\]/);
  assert.match(result.stdout, /envtest/);
});

it('exits 2 on a usage error, with the message and no stack trace', async () => {
  const result = await runTsoperator(['frobnicate']);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /unknown command 'frobnicate'/);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
});

it('exits 1 on an error the user can fix, with one clear message and no stack trace', async () => {
  const result = await runTsoperator(['envtest', 'use', 'banana']);
  assert.equal(result.code, 1);
  assert.equal(
    result.stderr,
    'Error: "banana" is not a Kubernetes version: give a full release version such as 1.37.2.\n',
  );
  assert.equal(result.stdout, '');
});
