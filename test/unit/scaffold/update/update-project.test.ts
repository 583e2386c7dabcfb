import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ProjectConfig } from '../../../../src/project/project-config.ts';
import { PROJECT_FILE, renderProjectFile } from '../../../../src/project/project-file.ts';
import { updateProject } from '../../../../src/scaffold/update/update-project.ts';
import { tsoperatorVersion } from '../../../../src/version.ts';
import { usageErrorMatching } from '../../../support/usage-error.ts';

const PROJECT: ProjectConfig = {
  version: '3',
  cliVersion: '0.0.5',
  domain: 'example.org',
  layout: ['typescript.tsoperator.io/v1'],
  multigroup: false,
  projectName: 'demo',
  settings: { namespaced: false, license: 'apache2' },
  resources: [],
};

describe('alpha update --from without --from-version, against the version PROJECT records', () => {
  let root = '';
  /** A `--from` package folder at `version`: its CLI is never run by these cases. */
  let from = '';
  const projectAt = async (name: string, cliVersion: string): Promise<string> => {
    const dir = join(root, name);
    await mkdir(dir);
    await writeFile(join(dir, PROJECT_FILE), renderProjectFile({ ...PROJECT, cliVersion }));
    return dir;
  };
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'tsoperator-update-project-'));
    from = join(root, 'tsoperator-0.0.9');
    await mkdir(join(from, 'bin'), { recursive: true });
    await writeFile(join(from, 'package.json'), JSON.stringify({ name: 'tsoperator', version: '0.0.9' }));
    await writeFile(join(from, 'bin', 'tsoperator.js'), '');
  });
  after(() => rm(root, { recursive: true, force: true }));

  test('a package of another version than PROJECT records is refused, before regenerating anything', async () => {
    const dir = await projectAt('older', '0.0.5');
    await assert.rejects(
      updateProject({ dir, from, force: true, dryRun: true }),
      usageErrorMatching(
        /is tsoperator 0\.0\.9, but PROJECT records that 0\.0\.5 generated .*--from-version 0\.0\.9/,
      ),
    );
  });

  test('a project PROJECT says is at this version has nothing to update', async () => {
    const dir = await projectAt('current', tsoperatorVersion());
    const result = await updateProject({ dir, from, force: true, dryRun: true });
    assert.equal(result.updated, false);
    const tagged = await projectAt('tagged', `v${tsoperatorVersion()}`);
    assert.equal((await updateProject({ dir: tagged, from, force: true, dryRun: true })).updated, false);
  });
});
