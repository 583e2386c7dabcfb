import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { runAnyway } from '../../support/generated-project.ts';
import { emptyProjectFolder, initProject } from '../../support/scaffold-project.ts';

/** What the tests use of a generated project's test/e2e/support. */
interface E2eSupport {
  useCurrentCluster(value: string | undefined): boolean;
  stopProcess(child: ChildProcess, graceMs: number): Promise<void>;
  tearDown(steps: readonly (() => Promise<void>)[]): Promise<void>;
}

/** A node process that has installed `onTerm` as its SIGTERM handler, once it says so. */
async function nodeProcess(onTerm: string): Promise<ChildProcess> {
  const script = `process.on('SIGTERM', () => { ${onTerm} }); console.log('ready'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(child.stdout, 'data');
  return child;
}

/**
 * The support modules of a generated project's e2e suite that decide where it runs, how it stops the
 * manager and tears down, and how its steps report a failure: rendered by init, and imported.
 */
describe("a generated project's e2e support", () => {
  let dir = '';
  let support: E2eSupport;

  before(async () => {
    dir = await emptyProjectFolder();
    await initProject(dir);
    const load = async (file: string): Promise<object> =>
      (await import(pathToFileURL(join(dir, 'test/e2e/support', file)).href)) as object;
    support = Object.assign(
      {},
      await load('cluster-choice.ts'),
      await load('stop-process.ts'),
      await load('tear-down.ts'),
    ) as E2eSupport;
  });
  after(() => rm(dirname(dir), { recursive: true, force: true }));

  it('E2E_USE_CURRENT_CLUSTER: true or 1 is the current cluster; unset, false or 0 a local one', () => {
    for (const value of ['true', '1', 'TRUE', ' true ']) assert.equal(support.useCurrentCluster(value), true);
    for (const value of [undefined, '', 'false', '0']) assert.equal(support.useCurrentCluster(value), false);
  });

  it('E2E_USE_CURRENT_CLUSTER refuses any other value, saying what it takes', () => {
    for (const value of ['yes', 'on', '2']) {
      assert.throws(
        () => support.useCurrentCluster(value),
        (err: unknown) =>
          err instanceof Error &&
          err.message.includes(`E2E_USE_CURRENT_CLUSTER=${value} is not understood`) &&
          err.message.includes('true (or 1)'),
      );
    }
  });

  it('stopProcess: SIGKILL once the grace period has passed after an ignored SIGTERM', async () => {
    const child = await nodeProcess('');
    await support.stopProcess(child, 300);
    assert.equal(child.signalCode, 'SIGKILL');
  });

  it('stopProcess: a process that exits on SIGTERM is not killed', async () => {
    const child = await nodeProcess('process.exit(0);');
    await support.stopProcess(child, 30_000);
    assert.equal(child.exitCode, 0);
    assert.equal(child.signalCode, null);
  });

  it('tearDown runs every step after one fails, then throws what failed', async () => {
    const ran: string[] = [];
    const failing = (name: string) => async (): Promise<void> => {
      ran.push(name);
      throw new Error(`${name} failed`);
    };
    await assert.rejects(
      support.tearDown([failing('samples'), async () => void ran.push('install')]),
      /samples failed/,
    );
    assert.deepEqual(ran, ['samples', 'install']);
    await assert.rejects(support.tearDown([failing('one'), failing('two')]), (err: unknown) => {
      assert.ok(err instanceof AggregateError);
      assert.deepEqual(
        err.errors.map((e: unknown) => String(e)),
        ['Error: one failed', 'Error: two failed'],
      );
      return true;
    });
  });

  it('dependentSteps: after the first failure, the later steps are skipped and name it', async () => {
    const file = join(dir, 'steps.e2e.ts');
    await writeFile(
      file,
      [
        "import { it } from 'node:test';",
        "import { dependentSteps } from './test/e2e/support/dependent-steps.ts';",
        'const step = dependentSteps();',
        "it('creates', step(async () => {}));",
        "it('scales', step(async () => { throw new Error('not scaled'); }));",
        "it('deletes', step(async () => {}));",
      ].join('\n'),
    );
    const result = await runAnyway(dir, process.execPath, ['--test', '--test-reporter=tap', file]);
    assert.equal(result.exitCode, 1);
    assert.match(result.output, /^ok 1 - creates$/m);
    assert.match(result.output, /^not ok 2 - scales$/m);
    assert.match(result.output, /^ok 3 - deletes # SKIP "scales" failed, and this step starts where/m);
  });
});
