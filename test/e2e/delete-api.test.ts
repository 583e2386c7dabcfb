import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resolveAssets } from '../../src/envtest/index.ts';
import { deleteApi } from '../../src/scaffold/delete/delete-api.ts';
import { SAMPLE_PROJECTS } from '../../scripts/testdata/sample-projects.ts';
import { tsoperatorIn, type Tsoperator } from '../../scripts/testdata/run-tsoperator.ts';
import { userEdit } from '../../scripts/testdata/user-edit.ts';
import { snapshotFolder } from '../support/folder-snapshot.ts';
import { installTsoperator, packCheckout, runIn } from '../support/generated-project.ts';
import { usageErrorMatching } from '../support/usage-error.ts';

/** One `delete api`, with a refusal it must give first when `refusedWith` is set. */
interface DeleteStep {
  readonly gvk: readonly [group: string, version: string, kind: string];
  /** Files the user changed are among those deleted: refused, then run with --force. */
  readonly force?: boolean;
  /** A refusal expected, the kind left in place. */
  readonly refusedWith?: RegExp;
  /** What the user does first, as they would by hand. */
  readonly userStep?: (dir: string, tsoperator: Tsoperator) => Promise<void>;
  /** Run the project's npm test on envtest after this step (once per project: it is expensive). */
  readonly npmTest?: boolean;
}

/** The storage version moved from a kind's v1 to its v2, which the v1 deletion asks for first. */
function makeV2TheStorageVersion(v1Types: string, v2Types: string): DeleteStep['userStep'] {
  return async (dir, tsoperator) => {
    const marker = '// +kubebuilder:storageversion\n';
    await userEdit(dir, v1Types, [[marker, '']]);
    const status = '// +kubebuilder:subresource:status\n';
    await userEdit(dir, v2Types, [[status, `${status}${marker}`]]);
    await tsoperator('manifests');
  };
}

/**
 * The kinds of each sample project, in an order a user can delete them in. Captain v2 (CronJob v2)
 * is the spoke of v1's conversion and v1 the storage version: both are refused until the user moves
 * the storage version, then v1 (the hub, its conversions with it) goes, then v2.
 */
const STEPS: Readonly<Record<string, readonly DeleteStep[]>> = {
  'project-v4': [
    { gvk: ['apps', 'v1', 'Deployment'] },
    { gvk: ['crew', 'v1', 'Admiral'] },
    { gvk: ['crew', 'v1', 'Memcached'], npmTest: true },
    {
      gvk: ['crew', 'v2', 'Captain'],
      refusedWith: /Captain v2 is a spoke of the conversion webhook of Captain v1/,
    },
    {
      gvk: ['crew', 'v1', 'Captain'],
      refusedWith: /Captain v1 is the storage version of Captain, and v2 remains/,
    },
    {
      gvk: ['crew', 'v1', 'Captain'],
      force: true,
      userStep: makeV2TheStorageVersion('src/api/v1/captain.types.ts', 'src/api/v2/captain.types.ts'),
    },
    { gvk: ['crew', 'v2', 'Captain'], force: true },
  ],
  'project-v4-multigroup': [
    { gvk: ['crew', 'v1', 'Captain'], npmTest: true },
    {
      gvk: ['batch', 'v2', 'CronJob'],
      refusedWith: /CronJob v2 is a spoke of the conversion webhook of CronJob v1/,
    },
    {
      gvk: ['batch', 'v1', 'CronJob'],
      refusedWith: /CronJob v1 is the storage version of CronJob, and v2 remains/,
    },
    {
      gvk: ['batch', 'v1', 'CronJob'],
      force: true,
      userStep: makeV2TheStorageVersion(
        'src/api/batch/v1/cronjob.types.ts',
        'src/api/batch/v2/cronjob.types.ts',
      ),
    },
    { gvk: ['batch', 'v2', 'CronJob'], force: true },
    { gvk: ['ship', 'v1beta1', 'Frigate'] },
    { gvk: ['apps', 'v1', 'Deployment'] },
  ],
};

/** What is in a project folder but not made by tsoperator: the install, and the build outputs. */
const NOT_SCAFFOLDED = ['node_modules/', 'package-lock.json', 'deploy/', '.tsoperator/deleted/'];

function scaffolded(files: Map<string, string>): Map<string, string> {
  return new Map(
    [...files].filter(
      ([path]) => !NOT_SCAFFOLDED.some((p) => path === p.replace(/\/$/, '') || path.startsWith(p)),
    ),
  );
}

// The acceptance of `delete api`: every kind of each sample project deleted one by one leaves a
// project that typechecks and whose manifests are current after each step, lints at the end, passes
// its tests (npm test once per project, mid-way, where tests remain: each run starts a control
// plane), and ends as the same `init` alone leaves a folder (with the project's plugins: `edit`
// adds to the project, not to a kind, so delete api leaves what it wrote).
describe('delete api on every kind of the sample projects, one by one, ends where init alone does', () => {
  let root = '';
  let tarball = '';
  let kubectl = '';
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'tsoperator-delete-api-'));
    tarball = await packCheckout(root);
    kubectl = join((await resolveAssets()).dir, 'kubectl');
  });
  after(() => rm(root, { recursive: true, force: true }));

  for (const [name, steps] of Object.entries(STEPS)) {
    describe(name, () => {
      let dir = '';
      let initDir = '';
      let packageJson = '';
      const tsoperator = (...args: string[]): Promise<void> => tsoperatorIn(dir)(...args);

      it('generated as gen-testdata makes it (and a folder by its init alone), then npm install', async () => {
        dir = join(root, 'samples', name);
        await mkdir(dir, { recursive: true });
        initDir = join(root, 'init', name);
        await mkdir(initDir, { recursive: true });
        // The sample's init (and plugin edits) run in initDir too, at the same moment: both from the
        // same templates.
        const recording: Tsoperator = async (...args) => {
          if (args[0] === 'init' || args[0] === 'edit') await tsoperatorIn(initDir)(...args);
          await tsoperator(...args);
        };
        const generate = SAMPLE_PROJECTS[name];
        assert.ok(generate, name);
        await generate({ tsoperator: recording, dir, kubectl });
        packageJson = await readFile(join(dir, 'package.json'), 'utf8');
        await installTsoperator(dir, tarball);
      });

      for (const step of steps) {
        const [group, version, kind] = step.gvk;
        const title = `delete api --group ${group} --version ${version} --kind ${kind}`;
        if (step.refusedWith) {
          it(`${title}: refused, saying what to do first`, async () => {
            const before = await snapshotFolder(dir);
            await assert.rejects(
              deleteApi({ dir, group, version, kind, force: true }, { dryRun: false }),
              usageErrorMatching(step.refusedWith ?? /./),
            );
            assert.deepEqual(await snapshotFolder(dir), before);
          });
          continue;
        }
        it(`${title}${step.force ? ' --force' : ''}: builds, manifests current`, async () => {
          await step.userStep?.(dir, tsoperator);
          if (step.force) {
            await assert.rejects(
              deleteApi({ dir, group, version, kind, force: false }, { dryRun: false }),
              usageErrorMatching(/were changed since tsoperator generated them/),
            );
          }
          const args = ['delete', 'api', '--group', group, '--version', version, '--kind', kind];
          await tsoperator(...args, ...(step.force ? ['--force'] : []));
          await runIn(dir, 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
          await tsoperator('manifests', '--check');
        });
        if (step.npmTest) {
          it(`npm test after ${title}`, async () => {
            const output = await runIn(dir, 'npm', ['test']);
            assert.match(output, /ℹ fail 0/);
            assert.doesNotMatch(output, /ℹ pass 0\b/);
          });
        }
      }

      it('lints, and is what init alone writes, the files the user changed kept aside', async () => {
        await runIn(dir, 'npx', ['eslint', '.']);
        await runIn(dir, 'npx', ['prettier', '--check', '.']);
        await writeFile(join(dir, 'package.json'), packageJson);
        const files = await snapshotFolder(dir);
        assert.deepEqual(scaffolded(files), scaffolded(await snapshotFolder(initDir)));
        const keptAside = [...files.keys()].filter((path) =>
          /^\.tsoperator\/deleted\/[^/]+\/.+\.\w+$/.test(path),
        );
        // Each kind version deleted with --force had its types and sample edited by the user.
        for (const { gvk } of steps.filter((step) => step.force === true)) {
          const [group, version, kind] = gvk;
          const edited = [
            `/${version}/${kind.toLowerCase()}.types.ts`,
            `/config/samples/${group}_${version}_${kind.toLowerCase()}.yaml`,
          ];
          for (const end of edited) {
            assert.ok(
              keptAside.some((path) => path.endsWith(end)),
              `${end} in\n${keptAside.join('\n')}`,
            );
          }
        }
      });
    });
  }
});
