import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { apiPaths } from '../../../src/scaffold/api/api-paths.ts';
import type { ProjectConfig, ResourceConfig } from '../../../src/project/project-config.ts';
import { repoRoot } from '../../support/cli.ts';

test('the README names the group-version file as create api writes it: groupversion-info.ts', () => {
  const project = { multigroup: false } as ProjectConfig;
  const resource = { group: 'demo', version: 'v1', kind: 'WebApp', plural: 'webapps' } as ResourceConfig;
  const written = apiPaths(project, resource).groupVersionInfo;
  assert.equal(written, 'src/api/v1/groupversion-info.ts');
  assert.ok(existsSync(join(repoRoot, 'templates', 'api', 'groupversion-info.ts.ejs')));
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  assert.deepEqual([...new Set(readme.match(/groupversion[-_]info\.ts/g))], ['groupversion-info.ts']);
});
