import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ESLint } from 'eslint';
import { scaffoldApi } from '../../../src/scaffold/api/scaffold-api.ts';
import { linkCheckoutPackages } from '../../support/checkout-packages.ts';
import { createApi, emptyProjectFolder, initProject } from '../../support/scaffold-project.ts';

/**
 * A generated project's ESLint configuration, with type information, on what init and create api
 * write (with this checkout's packages standing in for the project's).
 */
describe("a generated project's lint", () => {
  let dir = '';

  before(async () => {
    dir = await emptyProjectFolder();
    await initProject(dir);
    await createApi(dir, { group: 'demo', kind: 'WebApp' });
    await scaffoldApi({ dir, group: 'demo', kind: 'Site', image: 'nginx:1.27', port: 80 }, { dryRun: false });
    await createApi(dir, { group: 'apps', kind: 'Deployment', resource: false });
    await linkCheckoutPackages(dir);
  });
  after(() => rm(dirname(dir), { recursive: true, force: true }));

  it('passes on everything init and create api write', async () => {
    const results = await new ESLint({ cwd: dir }).lintFiles(['.']);
    const problems = results.flatMap((r) =>
      r.messages.map((m) => `${r.filePath}:${m.line} ${m.ruleId} ${m.message}`),
    );
    assert.deepEqual(problems, []);
    assert.ok(results.some((r) => r.filePath.endsWith(join('src', 'controllers', 'webapp.controller.ts'))));
  });

  it('reports a promise nobody awaits and a promise where a callback returns nothing', async () => {
    await writeFile(
      join(dir, 'src', 'promises.ts'),
      [
        'async function write(): Promise<void> {}',
        'export function reconcileAll(): void {',
        '  write();',
        "  process.on('SIGTERM', async () => {",
        '    await write();',
        '  });',
        '}',
        '',
      ].join('\n'),
    );
    const [result] = await new ESLint({ cwd: dir }).lintFiles(['src/promises.ts']);
    const rules = result?.messages.map((m) => `${m.line} ${m.ruleId ?? ''}`);
    assert.deepEqual(rules, [
      '3 @typescript-eslint/no-floating-promises',
      '4 @typescript-eslint/no-misused-promises',
    ]);
  });
});
