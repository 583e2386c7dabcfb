import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseProjectFile } from '../../../../src/project/project-file.ts';
import { replayCommands } from '../../../../src/scaffold/update/replay-commands.ts';
import { TESTDATA_DIR } from '../../../support/sample-project.ts';

test('a sharded project is replayed with init --sharded', async () => {
  const project = parseProjectFile(await readFile(join(TESTDATA_DIR, 'project-v4', 'PROJECT'), 'utf8'));
  const [init] = replayCommands({ ...project, settings: { ...project.settings, sharded: true } });
  assert.ok(init?.includes('--sharded'));
  assert.ok(!replayCommands(project)[0]?.includes('--sharded'), 'and an unsharded one without it');
});
