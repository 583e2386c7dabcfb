import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT_FILE, parseProjectFile, renderProjectFile } from '../../../../src/project/project-file.ts';
import { applyWrites } from '../../../../src/scaffold/apply.ts';
import { fileWrites } from '../../../../src/scaffold/change.ts';
import { planWebhook } from '../../../../src/scaffold/webhook/plan-webhook.ts';
import { tsoperatorVersion } from '../../../../src/version.ts';
import { createApi, inEmptyProjectFolder, initProject } from '../../../support/scaffold-project.ts';

async function cliVersion(dir: string): Promise<string> {
  return parseProjectFile(await readFile(join(dir, PROJECT_FILE), 'utf8')).cliVersion;
}

// The version `alpha update` starts from: the one whose init made the scaffold. A later command
// of a newer tsoperator adds its own files but leaves the init scaffold as it was, so it keeps
// the version; only init and alpha update, which write the whole scaffold, set it.
test('init records its version in PROJECT, and create api and create webhook keep the one there', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    assert.equal(await cliVersion(dir), tsoperatorVersion());
    const project = parseProjectFile(await readFile(join(dir, PROJECT_FILE), 'utf8'));
    await writeFile(join(dir, PROJECT_FILE), renderProjectFile({ ...project, cliVersion: '0.0.9' }));
    await createApi(dir, { group: 'demo', version: 'v1', kind: 'WebApp', controller: true });
    assert.equal(await cliVersion(dir), '0.0.9');
    const webhook = await planWebhook({
      dir,
      kind: 'WebApp',
      defaulting: true,
      validation: false,
      conversion: false,
      spokes: [],
      force: false,
    });
    await applyWrites(dir, fileWrites(webhook.changes));
    assert.equal(await cliVersion(dir), '0.0.9');
  });
});
