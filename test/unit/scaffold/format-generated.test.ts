import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import * as prettier from 'prettier';
import { scaffoldApi } from '../../../src/scaffold/api/scaffold-api.ts';
import { snapshotFolder } from '../../support/folder-snapshot.ts';
import { inEmptyProjectFolder, initProject } from '../../support/scaffold-project.ts';

test('TypeScript that create api writes passes the project prettier check, whatever the length of the kind', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    const kind = 'ObservabilityPipelineRunner';
    await scaffoldApi({ dir, group: 'demo', kind, image: 'nginx:1.27' }, { dryRun: false });
    await scaffoldApi({ dir, group: 'demo', kind: 'ObservabilityPipelineStore' }, { dryRun: false });

    const files = [...(await snapshotFolder(dir))].filter(
      ([path]) => path.endsWith('.ts') && /observabilitypipeline/.test(path),
    );
    // types x2, controllers x2, their tests x2, the deploy-image resources, and the image kind's e2e test.
    assert.equal(files.length, 8);
    for (const [path, text] of files) {
      const filepath = join(dir, path);
      const options = { ...(await prettier.resolveConfig(filepath)), filepath };
      assert.ok(await prettier.check(text, options), `${path} is formatted`);
    }
  });
});
