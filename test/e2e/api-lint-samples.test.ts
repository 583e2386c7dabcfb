import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { execa } from 'execa';
import { runCli } from '../../src/cli/main.ts';
import { SAMPLE_PROJECTS } from '../../scripts/testdata/sample-projects.ts';
import { repoRoot } from '../support/cli.ts';

/*
 * The sample projects, generated now into a scratch folder (the scaffold and the edits their users
 * make), follow the API conventions with every check on by default: `tsoperator lint` passes.
 */
describe('the sample projects lint clean', () => {
  let out = '';

  before(async () => {
    out = await mkdtemp(join(tmpdir(), 'tsoperator-lint-samples-'));
    await execa(process.execPath, [join(repoRoot, 'scripts', 'gen-testdata.ts'), '--out', out], {
      cwd: repoRoot,
    });
  });
  after(() => rm(out, { recursive: true, force: true }));

  for (const name of Object.keys(SAMPLE_PROJECTS)) {
    it(`tsoperator lint passes in ${name}`, async () => {
      let output = '';
      const write = process.stdout.write.bind(process.stdout);
      const back = process.cwd();
      process.chdir(join(out, name));
      // The test runner reports through stdout in bytes, while a test runs: those pass through.
      process.stdout.write = (chunk: string | Uint8Array) =>
        typeof chunk === 'string' ? ((output += chunk), true) : write(chunk);
      try {
        assert.equal(await runCli(['lint']), 0, output);
      } finally {
        process.stdout.write = write;
        process.chdir(back);
      }
      assert.match(output, /API types follow the API conventions \(14 checks\)/);
    });
  }
});
