import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { runTsoperator } from '../../support/cli.ts';
import { inEmptyProjectFolder, initProject } from '../../support/scaffold-project.ts';

test('create api --image --port (built CLI): a bad port, or a port without an image, exits 2', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    const badPort = await runTsoperator(
      ['create', 'api', '--kind', 'WebApp', '--image', 'nginx', '--port', 'http'],
      {
        cwd: dir,
      },
    );
    assert.equal(badPort.code, 2);
    assert.match(badPort.stderr, /a port is a whole number from 1 to 65535/);

    const noImage = await runTsoperator(['create', 'api', '--kind', 'WebApp', '--port', '80'], { cwd: dir });
    assert.equal(noImage.code, 2);
    assert.match(noImage.stderr, /--port is the port of --image: give both/);
    assert.doesNotMatch(noImage.stderr, /\n\s+at /);
  });
});

test('create api --image --dry-run (built CLI) says which port it took', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    const result = await runTsoperator(
      ['create', 'api', '--kind', 'WebApp', '--image', 'nginx:1.27', '--dry-run'],
      { cwd: dir },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^defaulted: port 8080 \(no --port given\)$/m);
    assert.match(result.stdout, /^create {4}src\/controllers\/webapp\.resources\.ts$/m);
  });
});

test("create api (built CLI) takes Kubebuilder's deploy-image command line as its book prints it", async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    const result = await runTsoperator(
      [
        'create',
        'api',
        '--group',
        'cache',
        '--version',
        'v1alpha1',
        '--kind',
        'Memcached',
        '--image=memcached:1.6.26-alpine3.19',
        '--image-container-command=memcached,--memory-limit=64,-o,modern,-v',
        '--image-container-port=11211',
        '--run-as-user=1001',
        '--plugins=deploy-image/v1-alpha',
        '--make=false',
      ],
      { cwd: dir },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /manifests not regenerated \(--make=false\): run `tsoperator manifests` next/,
    );
    await assert.rejects(stat(join(dir, 'config/crd/bases/cache.example.org_memcacheds.yaml')));
    const project = await readFile(join(dir, 'PROJECT'), 'utf8');
    assert.match(project, /containerCommand: memcached,--memory-limit=64,-o,modern,-v\n/);
    assert.match(project, /containerPort: '11211'\n/);
    assert.match(project, /runAsUser: '1001'\n/);
    const resources = await readFile(join(dir, 'src/controllers/memcached.resources.ts'), 'utf8');
    assert.match(resources, /\['memcached', '--memory-limit=64', '-o', 'modern', '-v'\]/);
    assert.match(
      resources,
      /securityContext\.runAsNonRoot = true;\n\s+securityContext\.runAsUser = RUN_AS_USER;/,
    );

    const manifests = await runTsoperator(['manifests'], { cwd: dir });
    assert.equal(manifests.code, 0, manifests.stderr);
    await stat(join(dir, 'config/crd/bases/cache.example.org_memcacheds.yaml'));
  });
});

test('create api (built CLI) refuses deploy-image flags it cannot honour, saying what to give', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    const refusals: [string[], RegExp][] = [
      [
        ['--plugins', 'go/v4', '--image', 'nginx'],
        /no plugin go\/v4; create api takes deploy-image\/v1-alpha/,
      ],
      [['--plugins', 'deploy-image/v1-alpha'], /runs an image: give it with --image/],
      [['--image', 'nginx', '--run-as-user', '0'], /a user id is a whole number above 0/],
      [['--run-as-user', '1001'], /--run-as-user is the user of the --image container: give both/],
      [
        ['--image-container-command', 'sleep,60'],
        /--image-container-command is the command of --image: give both/,
      ],
      [['--image', 'nginx', '--port', '80', '--image-container-port', '81'], /name one port: give one/],
    ];
    for (const [flags, message] of refusals) {
      const result = await runTsoperator(['create', 'api', '--kind', 'WebApp', ...flags], { cwd: dir });
      assert.equal(result.code, 2, flags.join(' '));
      assert.match(result.stderr, message, flags.join(' '));
      assert.doesNotMatch(result.stderr, /\n\s+at /);
    }
    await assert.rejects(stat(join(dir, 'src/controllers/webapp.controller.ts')));
  });
});
