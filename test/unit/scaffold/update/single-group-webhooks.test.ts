import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { parseProjectFile } from '../../../../src/project/project-file.ts';
import { StagingTree } from '../../../../src/scaffold/staging-tree.ts';
import { singleGroupWebhooks } from '../../../../src/scaffold/update/single-group-webhooks.ts';
import { TESTDATA_DIR } from '../../../support/sample-project.ts';

test("a multi-group project's webhooks at the single-group path are those made before the turn", async () => {
  const project = parseProjectFile(await readFile(join(TESTDATA_DIR, 'project-v4', 'PROJECT'), 'utf8'));
  const [captain] = project.resources;
  assert.ok(captain);
  const early = { ...captain, webhooks: { webhookVersion: 'v1', defaulting: true } };
  const late = { ...early, group: 'ship', kind: 'Frigate', plural: 'frigates' };
  const dir = await mkdtemp(join(tmpdir(), 'tsoperator-webhooks-'));
  try {
    for (const path of ['src/webhooks/v1/captain.webhook.ts', 'src/webhooks/ship/v1/frigate.webhook.ts']) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), '');
    }
    const tree = await StagingTree.open(dir);
    const resources = [early, late, { ...early, kind: 'Memcached', plural: 'memcacheds' }];
    assert.deepEqual(await singleGroupWebhooks(tree, { ...project, multigroup: true, resources }), [early]);
    assert.deepEqual(await singleGroupWebhooks(tree, { ...project, multigroup: false, resources }), []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
