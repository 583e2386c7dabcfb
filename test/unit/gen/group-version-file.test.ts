import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { apiPaths } from '../../../src/scaffold/api/api-paths.ts';
import type { ProjectConfig, ResourceConfig } from '../../../src/project/project-config.ts';
import { repoRoot } from '../../support/cli.ts';

test('the book names the group-version file as create api writes it: groupversion-info.ts', () => {
  const project = { multigroup: false } as ProjectConfig;
  const resource = { group: 'demo', version: 'v1', kind: 'WebApp', plural: 'webapps' } as ResourceConfig;
  const written = apiPaths(project, resource).groupVersionInfo;
  assert.equal(written, 'src/api/v1/groupversion-info.ts');
  assert.ok(existsSync(join(repoRoot, 'templates', 'api', 'groupversion-info.ts.ejs')));
  // The guide's pages and the README, where the names a user looks for are written.
  const guide = join(repoRoot, 'docs', 'guide');
  const pages = [join(repoRoot, 'README.md'), ...readdirSync(guide).map((page) => join(guide, page))];
  const text = pages.map((page) => readFileSync(page, 'utf8')).join('\n');
  assert.deepEqual([...new Set(text.match(/groupversion[-_]info\.ts/g))], ['groupversion-info.ts']);
});
