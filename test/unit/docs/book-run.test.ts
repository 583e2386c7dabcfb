import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { isAlive } from '../../../src/envtest/process-alive.ts';
import { runBookPages } from '../../support/book-run.ts';
import { eventually, eventuallyTrue } from '../../support/eventually.ts';

const fence = (code: string, directive?: string): string =>
  `${directive ? `<!-- book: ${directive} -->\n\n` : ''}\`\`\`sh\n${code}\n\`\`\`\n`;

// The runner of the book's pages, on small pages of its own: what it carries from block to block,
// how it reports a failing block, and that it leaves no process behind.
describe('running a page of the book', () => {
  let dir: string;
  /** Outside the run's folder, which the run removes: where the pages leave evidence. */
  let evidence: string;
  let pageCount = 0;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tsoperator-book-run-'));
    evidence = join(dir, 'evidence');
    await mkdir(evidence);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  async function page(...parts: string[]): Promise<string> {
    const file = join(dir, `page-${++pageCount}.md`);
    await writeFile(file, `# A page\n\n${parts.join('\nSome prose.\n\n')}`);
    return file;
  }

  it('carries the directory, exported variables and background exports from block to block', async () => {
    const file = await page(
      fence('mkdir project && cd project\nexport GREETING=hello\nUNEXPORTED=gone'),
      fence(
        `printf '%s\\n' "export FROM_BACKGROUND='it'\\''s here'"\necho ready\nsleep 600`,
        'background until "ready"',
      ),
      fence(
        `test "$(basename "$PWD")" = project\ntest "$GREETING" = hello\ntest -z "\${UNEXPORTED:-}"\n` +
          `test "$FROM_BACKGROUND" = "it's here"\ntest "$(command -v tsoperator)" != ""\n` +
          `pwd > ${join(evidence, 'cwd')}`,
      ),
    );
    const [report] = await runBookPages([file]);
    assert.equal(report?.ran, 3);
    assert.match(await readFile(join(evidence, 'cwd'), 'utf8'), /\/reader\/project\n$/);
  });

  it('fails at a failing block with the page, its line, the block and its output', async () => {
    const file = await page(fence('echo first block'), fence('echo the output\nfalse\necho not reached'));
    await assert.rejects(runBookPages([file]), (err: Error) => {
      assert.match(err.message, /page-\d+\.md:9: `echo the output` failed \(exit code 1\)\nthe output\n$/);
      return true;
    });
  });

  it('fails a pipeline whose first command fails, as pipefail has it', async () => {
    const file = await page(fence('false | cat'));
    await assert.rejects(runBookPages([file]), /`false \| cat` failed \(exit code 1\)/);
  });

  it('stops a background block with SIGINT at the end, even when a later block fails', async () => {
    const pidFile = join(evidence, 'background.pid');
    const stopped = join(evidence, 'stopped');
    const file = await page(
      fence(
        `trap 'echo interrupted > ${stopped}; exit 130' INT\necho $$ > ${pidFile}\necho up\nwhile true; do sleep 0.1; done`,
        'background until "up"',
      ),
      fence('exit 3'),
    );
    await assert.rejects(
      runBookPages([file]),
      /`exit 3` failed \(exit code 3\)\n\n--- background block at .*:5:\nup\n/,
    );
    assert.equal(await readFile(stopped, 'utf8'), 'interrupted\n');
    assert.equal(isAlive(Number(await readFile(pidFile, 'utf8'))), false, 'the background block is gone');
  });

  it('kills a background block that ignores Ctrl-C, and what it started', async () => {
    const pidFile = join(evidence, 'ignoring.pid');
    const file = await page(
      fence(`trap '' INT\nsleep 600 &\necho $! > ${pidFile}\necho up\nwait`, 'background until "up"'),
    );
    await runBookPages([file], { stopGraceMs: 500 });
    assert.equal(isAlive(Number(await readFile(pidFile, 'utf8'))), false, 'its child is gone');
  });

  it('leaves no background block behind when the test process itself is killed', async () => {
    const pidFile = join(evidence, 'orphan.pid');
    const file = await page(
      fence(`echo $$ > ${pidFile}\necho up\nsleep 600`, 'background until "up"'),
      fence('sleep 600'),
    );
    const run = `const { runBookPages } = await import(${JSON.stringify(pathToFileURL(join(import.meta.dirname, '../../support/book-run.ts')).href)});
      await runBookPages([${JSON.stringify(file)}]);`;
    const runner = spawn(process.execPath, ['--input-type=module', '--eval', run], { stdio: 'ignore' });
    // Read once written whole: the shell creates the file before it writes the number.
    const background = await eventually(
      async () => {
        const text = existsSync(pidFile) ? await readFile(pidFile, 'utf8') : '';
        return text.endsWith('\n') ? Number(text) : undefined;
      },
      'the background block to start',
      30_000,
    );
    runner.kill('SIGKILL');
    await eventuallyTrue(() => !isAlive(background), 'the reaper to end the background block', 15_000);
  });

  it('stops the background block a stop directive names, before the blocks after it, and starts it again', async () => {
    const log = join(evidence, 'restarts');
    const server = `trap 'echo stopped >> ${log}; exit 130' INT\necho started >> ${log}\necho up\nwhile true; do sleep 0.1; done`;
    const file = await page(
      fence(server, 'background until "up"'),
      fence('# Ctrl-C in the terminal that runs the server', 'stop "echo started"'),
      fence(`cat ${log} > ${join(evidence, 'after-stop')}`),
      fence(server, 'background until "up"'),
    );
    const [report] = await runBookPages([file]);
    assert.equal(report?.ran, 4);
    assert.equal(await readFile(join(evidence, 'after-stop'), 'utf8'), 'started\nstopped\n');
    assert.equal(await readFile(log, 'utf8'), 'started\nstopped\nstarted\nstopped\n');

    const nothing = await page(fence('# Ctrl-C', 'stop "npm start"'));
    await assert.rejects(runBookPages([nothing]), /no background block runs `npm start` to stop/);
  });

  it('ends a block when its shell ends, though a job it started (`cmd &`) runs on, and kills that job at the end', async () => {
    const pidFile = join(evidence, 'job.pid');
    const alive = join(evidence, 'job-alive');
    const file = await page(
      fence(`sleep 600 &\necho $! > ${pidFile}\necho started`),
      fence(`kill -0 "$(cat ${pidFile})" && echo yes > ${alive}`),
    );
    const [report] = await runBookPages([file]);
    assert.equal(report?.ran, 2);
    assert.equal(await readFile(alive, 'utf8'), 'yes\n', 'the job ran on into the next block');
    assert.equal(isAlive(Number(await readFile(pidFile, 'utf8'))), false, 'the job is gone after the run');
  });

  it('fails when a background block ends before printing its line, showing its output', async () => {
    const file = await page(fence('echo starting\nexit 1', 'background until "never printed"'));
    await assert.rejects(
      runBookPages([file]),
      /`echo starting`: it ended \(exit code 1\) before printing "never printed"\nstarting\n/,
    );
  });

  it('fails when a background block ends before the run does', async () => {
    const file = await page(fence('echo up', 'background until "up"'), fence('sleep 1'));
    await assert.rejects(runBookPages([file]), /:5: the background block ended before the run did/);
  });

  it('re-runs an eventually block until it succeeds, and fails it after its time', async () => {
    const count = join(evidence, 'count');
    const tries = `n=$(cat ${count} 2>/dev/null || echo 0); echo $((n + 1)) > ${count}; test "$n" -ge 2`;
    await runBookPages([await page(fence(tries, 'eventually 20'))]);
    assert.equal(await readFile(count, 'utf8'), '3\n');
    await assert.rejects(
      runBookPages([await page(fence('echo not yet\nfalse', 'eventually 2'))]),
      /`echo not yet` did not succeed within 2 s; its last run \(exit code 1\):\nnot yet\n/,
    );
  });

  it('writes a block into the project, and copies a file from the docs folder', async () => {
    const docs = join(dir, 'docs');
    await mkdir(join(docs, 'projects', 'demo', 'src'), { recursive: true });
    await writeFile(join(docs, 'projects', 'demo', 'src', 'main.ts'), 'copied\n');
    const file = await page(
      fence('mkdir project && cd project'),
      '<!-- book: write src/types.ts -->\n\n```ts\nwritten\n```\n',
      '<!-- book: copy src/main.ts from projects/demo -->\n\n<<< @/projects/demo/src/main.ts#region\n',
      fence(`cat src/types.ts src/main.ts > ${join(evidence, 'files')}`),
    );
    await runBookPages([file], { docs });
    assert.equal(await readFile(join(evidence, 'files'), 'utf8'), 'written\ncopied\n');

    const missing = await page(
      '<!-- book: copy src/gone.ts from projects/demo -->\n\n<<< @/projects/demo/src/gone.ts\n',
    );
    await assert.rejects(
      runBookPages([missing], { docs }),
      /projects\/demo\/src\/gone\.ts, the file to copy, is missing/,
    );
  });
});
