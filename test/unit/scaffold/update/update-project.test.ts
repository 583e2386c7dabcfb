import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { ProjectConfig } from '../../../../src/project/project-config.ts';
import { PROJECT_FILE, parseProjectFile, renderProjectFile } from '../../../../src/project/project-file.ts';
import { folderFiles } from '../../../../src/scaffold/update/folder-files.ts';
import { formatUpdate } from '../../../../src/scaffold/update/format-update.ts';
import { updateProject } from '../../../../src/scaffold/update/update-project.ts';
import { tsoperatorVersion } from '../../../../src/version.ts';
import { repoRoot, runTsoperator } from '../../../support/cli.ts';
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

/** This tsoperator's CLI as an old version that had no `edit` yet, as commander refuses it. */
const WITHOUT_EDIT = (bin: string): string => `
if (process.argv[2] === 'edit') {
  console.error("error: unknown command 'edit'");
  process.exit(1);
}
await import(${JSON.stringify(pathToFileURL(bin).href)});
`;

describe('alpha update of a project a newer tsoperator went on with (the built CLI: npm run build first)', () => {
  let root = '';
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'tsoperator-update-later-'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  test("edit --plugins grafana by 0.1.0 in a 0.0.9 project: skipped in 0.0.9's replay, its files kept", async () => {
    const from = join(root, 'tsoperator-0.0.9');
    await mkdir(join(from, 'bin'), { recursive: true });
    await writeFile(
      join(from, 'package.json'),
      JSON.stringify({ name: 'tsoperator', version: '0.0.9', type: 'module' }),
    );
    await writeFile(join(from, 'bin', 'tsoperator.js'), WITHOUT_EDIT(join(repoRoot, 'bin', 'tsoperator.js')));
    const dir = join(root, 'demo');
    await mkdir(dir);
    const init = ['init', '--domain', 'example.org', '--project-name', 'demo', '--license', 'apache2'];
    for (const args of [init, ['edit', '--plugins', 'grafana']]) {
      assert.equal((await runTsoperator(args, { cwd: dir })).code, 0);
    }
    const project = parseProjectFile(await readFile(join(dir, PROJECT_FILE), 'utf8'));
    await writeFile(join(dir, PROJECT_FILE), renderProjectFile({ ...project, cliVersion: '0.0.9' }));
    const dashboards = (await folderFiles(join(dir, 'grafana'))).sort();
    assert.ok(dashboards.length > 0);

    const result = await updateProject({ dir, from, force: true, dryRun: false });
    assert.deepEqual(result.skipped, [['edit', '--plugins', 'grafana']]);
    assert.match(
      formatUpdate(result),
      /tsoperator 0\.0\.9 has no `edit --plugins grafana`: its files are taken as new in /,
    );
    assert.deepEqual(result.plan.conflicts, []);
    assert.ok(result.plan.changes.every((change) => !change.path.startsWith('grafana/')));
    assert.deepEqual((await folderFiles(join(dir, 'grafana'))).sort(), dashboards);
    const updated = parseProjectFile(await readFile(join(dir, PROJECT_FILE), 'utf8'));
    assert.equal(updated.cliVersion, tsoperatorVersion());
  });
});
