import assert from 'node:assert/strict';
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
