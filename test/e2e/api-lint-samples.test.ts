import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { execa } from 'execa';
import { SAMPLE_PROJECTS } from '../../scripts/testdata/sample-projects.ts';
import { runCliCaptured } from '../support/captured-cli.ts';
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
      const back = process.cwd();
      process.chdir(join(out, 'testdata', name));
      try {
        const { code, stdout } = await runCliCaptured(['lint']);
        assert.equal(code, 0, stdout);
        assert.match(stdout, /API types follow the API conventions \(14 checks\)/);
      } finally {
        process.chdir(back);
      }
    });
  }
});
