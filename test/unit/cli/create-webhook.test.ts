import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runTsoperator } from '../../support/cli.ts';
import { createApi, inEmptyProjectFolder, initProject } from '../../support/scaffold-project.ts';

/** `tsoperator create webhook` as a user types it (the built bin: `npm run build` first). */
describe('tsoperator create webhook', () => {
  it('takes --programmatic-validation and a comma-separated --spoke, and prints the plan', async () => {
    await inEmptyProjectFolder(async (dir) => {
      await initProject(dir);
      for (const version of ['v1', 'v2', 'v3'])
        await createApi(dir, { group: 'demo', version, kind: 'WebApp' });
      const args = ['create', 'webhook', '--kind', 'WebApp', '--version', 'v1'];
      const result = await runTsoperator(
        [...args, '--programmatic-validation', '--conversion', '--spoke', 'v2,v3', '--dry-run'],
        { cwd: dir },
      );

      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /create {4}src\/webhooks\/v1\/webapp\.validator\.ts/);
      assert.match(result.stdout, /create {4}src\/webhooks\/v3\/webapp\.conversion\.ts/);
      assert.match(result.stdout, /dry run: nothing was written/);
    });
  });

  it('without a webhook type, is a usage error (exit 2) saying which flags to give', async () => {
    await inEmptyProjectFolder(async (dir) => {
      await initProject(dir);
      await createApi(dir, { group: 'demo', version: 'v1', kind: 'WebApp' });
      const result = await runTsoperator(['create', 'webhook', '--kind', 'WebApp'], { cwd: dir });

      assert.equal(result.code, 2);
      assert.match(result.stderr, /--defaulting, --programmatic-validation and\/or --conversion/);
    });
  });

  it('for a kind without an API, says to run create api first (exit 1)', async () => {
    await inEmptyProjectFolder(async (dir) => {
      await initProject(dir);
      const result = await runTsoperator(['create', 'webhook', '--kind', 'WebApp', '--defaulting'], {
        cwd: dir,
      });

      assert.equal(result.code, 1);
      assert.match(result.stderr, /run `tsoperator create api --kind WebApp` first/);
    });
  });
});
