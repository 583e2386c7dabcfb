import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runTsoperator } from '../../support/cli.ts';
import { snapshotFolder } from '../../support/folder-snapshot.ts';

describe('tsoperator init and create api (built CLI)', () => {
  let root = '';
  let dir = '';
  let dryRunPlan: string[] = [];
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'tsoperator-cli-'));
    dir = join(root, 'webapp-operator');
    await mkdir(dir);
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('init --dry-run prints the plan and writes nothing', async () => {
    const result = await runTsoperator(['init', '--domain', 'example.org', '--dry-run'], { cwd: dir });
    dryRunPlan = result.stdout.split('\n').slice(0, -2);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^create {4}PROJECT$/m);
    assert.match(result.stdout, /^create {4}src\/main\.ts$/m);
    assert.match(result.stdout, /^dry run: nothing was written$/m);
    assert.deepEqual([...(await snapshotFolder(dir)).keys()], []);
  });

  it('init writes the plan it printed in the dry run', async () => {
    const result = await runTsoperator(['init', '--domain', 'example.org'], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(result.stdout.split('\n').slice(0, -2), dryRunPlan);
    const files = await snapshotFolder(dir);
    for (const line of dryRunPlan) assert.ok(files.has(line.slice('create    '.length)), line);
  });

  it('init again exits 2 with one message and no stack', async () => {
    const result = await runTsoperator(['init', '--domain', 'example.org'], { cwd: dir });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^Error: this folder is already a tsoperator project/);
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  });

  it('create api --kind alone says which defaults it took; --dry-run writes nothing', async () => {
    const before = await snapshotFolder(dir);
    const result = await runTsoperator(['create', 'api', '--kind', 'WebApp', '--dry-run'], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^defaulted: version v1 \(no --version given\)$/m);
    assert.match(result.stdout, /^defaulted: no group: the kind is in the bare domain example\.org/m);
    assert.match(result.stdout, /^create {4}src\/controllers\/webapp\.controller\.ts$/m);
    assert.match(
      result.stdout,
      /^insert {4}src\/main\.ts\n {10}at \+tsoperator:scaffold:imports, \+tsoperator:scaffold:controllers$/m,
    );
    assert.deepEqual(await snapshotFolder(dir), before);
  });

  it('create api --version is the API version, not the program version', async () => {
    const args = ['create', 'api', '--group', 'demo', '--version', 'v2', '--kind', 'WebApp'];
    const result = await runTsoperator(args, { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.ok((await snapshotFolder(dir)).has('src/api/v2/webapp.types.ts'));
  });

  it("create api --group batch --kind CronJob is the user's own kind, as the Kubebuilder book prints it", async () => {
    const args = [
      'create',
      'api',
      '--group',
      'batch',
      '--version',
      'v1',
      '--kind',
      'CronJob',
      '--multigroup',
      '--dry-run',
    ];
    const result = await runTsoperator(args, { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^note: batch is also the name of a Kubernetes group: CronJob is your own kind in batch\.example\.org; for a controller of Kubernetes' batch\/v1 CronJob, use --no-resource instead$/m,
    );
    assert.match(result.stdout, /^create {4}src\/api\/batch\/v1\/cronjob\.types\.ts$/m);
  });

  it("create api takes Kubebuilder's --resource=false --controller=true", async () => {
    const args = [
      'create',
      'api',
      '--group',
      'apps',
      '--kind',
      'Deployment',
      '--resource=false',
      '--controller=true',
    ];
    const result = await runTsoperator(args, { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.ok((await snapshotFolder(dir)).has('src/controllers/deployment.controller.ts'));
  });

  it('create api refuses a boolean flag that is neither true nor false', async () => {
    const result = await runTsoperator(['create', 'api', '--kind', 'Thing', '--controller=maybe'], {
      cwd: dir,
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /argument 'maybe' is invalid\. expected true or false\./);
  });

  it('create api with a bad kind exits 2 naming the rule', async () => {
    const result = await runTsoperator(['create', 'api', '--kind', 'webapp'], { cwd: dir });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^Error: invalid kind "webapp": it must start with an upper-case letter/);
  });
});
