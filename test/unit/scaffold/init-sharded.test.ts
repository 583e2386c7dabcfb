import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseProjectFile } from '../../../src/project/project-file.ts';
import { snapshotFolder } from '../../support/folder-snapshot.ts';
import { inEmptyProjectFolder, initProject } from '../../support/scaffold-project.ts';

test('init --sharded wires sharding into main.ts, 3 replicas, the README, and keeps it in PROJECT', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir, { sharded: true });
    const files = await snapshotFolder(dir);
    const main = files.get('src/main.ts') ?? '';
    assert.match(main, /sharding: \{\n\s+ring: 'webapp-operator',\n\s+controllers: 'all',\n/);
    // Each process its own shard name: the flag, else $SHARD_NAME (the pod name in a Deployment).
    assert.match(main, /shardNameOf\(flags\.shardName \|\| process\.env\['SHARD_NAME'\] \|\| ''\)/);
    assert.match(main, /leaderElection: true,/);
    assert.match(files.get('config/manager/manager.yaml') ?? '', /replicas: 3/);
    assert.match(files.get('README.md') ?? '', /## Sharding/);
    assert.equal(parseProjectFile(files.get('PROJECT') ?? '').settings.sharded, true);

    await initProject(dir, { force: true });
    const again = await snapshotFolder(dir);
    assert.match(
      again.get('config/manager/manager.yaml') ?? '',
      /replicas: 3/,
      'init --force keeps it sharded',
    );
  });
});

test('init without --sharded leaves one replica and the leader-elect flag', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    const files = await snapshotFolder(dir);
    assert.doesNotMatch(files.get('src/main.ts') ?? '', /sharding:/);
    assert.match(files.get('src/main.ts') ?? '', /leaderElection: flags.leaderElect,/);
    assert.match(files.get('config/manager/manager.yaml') ?? '', /replicas: 1/);
    assert.equal(parseProjectFile(files.get('PROJECT') ?? '').settings.sharded, undefined);
  });
});
