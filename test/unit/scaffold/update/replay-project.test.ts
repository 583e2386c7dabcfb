import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TsoperatorError } from '../../../../src/errors.ts';
import { replayProject } from '../../../../src/scaffold/update/replay-project.ts';
import type { TsoperatorPackage } from '../../../../src/scaffold/update/tsoperator-package.ts';

/**
 * An old CLI as commander makes it: it knows init (which writes a file) and create, and fails on
 * anything else as commander does, and on `create webhook` as a command that goes wrong.
 */
const OLD_CLI = `
import { writeFileSync } from 'node:fs';
const [command, sub] = process.argv.slice(2);
if (command === 'init') writeFileSync('PROJECT', 'cliVersion: 0.0.9\\n');
else if (command === 'create' && sub === 'api' && process.argv.includes('--image')) {
  console.error("error: unknown option '--image'");
  process.exit(1);
} else if (command === 'create' && sub === 'webhook') {
  console.error('error: src/api/v1/ship.types.ts: no such file');
  process.exit(1);
} else if (command !== 'create') {
  console.error(\`error: unknown command '\${command}'\`);
  process.exit(1);
}
`;

describe('replaying a project with a version that does not know a later command', () => {
  let root = '';
  let old: TsoperatorPackage = { dir: '', version: '' };
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'tsoperator-replay-'));
    old = { dir: join(root, 'tsoperator-0.0.9'), version: '0.0.9' };
    await mkdir(join(old.dir, 'bin'), { recursive: true });
    await writeFile(join(old.dir, 'bin', 'tsoperator.js'), OLD_CLI);
  });
  after(() => rm(root, { recursive: true, force: true }));

  test("the old version's replay skips an unknown command or option, and says which", async () => {
    const dir = join(root, 'old');
    const skipped = await replayProject(
      old,
      [['init'], ['create', 'api', '--image', 'memcached'], ['edit', '--plugins', 'grafana'], ['manifests']],
      dir,
      { skipUnknown: true },
    );
    assert.deepEqual(skipped, [
      ['create', 'api', '--image', 'memcached'],
      ['edit', '--plugins', 'grafana'],
      ['manifests'],
    ]);
    assert.deepEqual(await readdir(dir), ['PROJECT']);
  });

  test('a command the old version knows, and that fails, is still an error', async () => {
    await assert.rejects(
      replayProject(old, [['init'], ['create', 'webhook']], join(root, 'failing'), { skipUnknown: true }),
      (err: unknown) =>
        err instanceof TsoperatorError && /`tsoperator create webhook` failed/.test(err.message),
    );
  });

  test("in the new version's replay, an unknown command is an error", async () => {
    await assert.rejects(
      replayProject(old, [['init'], ['edit', '--plugins', 'grafana']], join(root, 'new'), {
        skipUnknown: false,
      }),
      (err: unknown) =>
        err instanceof TsoperatorError &&
        /tsoperator 0\.0\.9 could not regenerate the project: `tsoperator edit --plugins grafana` failed:\nerror: unknown command 'edit'/.test(
          err.message,
        ),
    );
  });
});
