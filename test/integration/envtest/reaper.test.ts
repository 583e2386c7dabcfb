import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { it } from 'node:test';
import { isAlive } from '../../../src/envtest/process-alive.ts';
import { processStartTime } from '../../../src/envtest/process-identity.ts';
import { waitForExit } from '../../support/processes.ts';

it('a test process killed with SIGKILL leaves no control-plane process or folder behind', async () => {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'testdata', 'start-and-hang.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  const started = new Promise<{ pids: number[]; dir: string }>((resolve) => {
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n'))
        resolve(JSON.parse(out.split('\n')[0] ?? '') as { pids: number[]; dir: string });
    });
  });
  const { pids, dir } = await started;
  assert.equal(pids.length, 2);
  assert.ok(existsSync(dir));
  child.kill('SIGKILL');
  await once(child, 'exit');
  assert.deepEqual(await waitForExit(pids, 20_000), []);
  for (let i = 0; i < 100 && existsSync(dir); i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(existsSync(dir), false);
});

// pid_max is 32768 on many machines, and a test run spawns thousands of processes: a process the
// reaper was told of may be long gone, its number given to another test's kube-apiserver by the
// time the parent dies. The reaper signals only a pid that still names the process it was told of.
it('a reaper whose parent died signals no process that only shares a watched pid', async () => {
  const watched = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  const other = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  const reaper = spawn(
    process.execPath,
    [join(import.meta.dirname, '..', '..', '..', 'src', 'envtest', 'reaper.ts')],
    {
      stdio: ['pipe', 'ignore', 'inherit'],
    },
  );
  try {
    // `other` stands for a process that got the number of one that ended: its start time differs.
    reaper.stdin.write(`pid ${String(watched.pid)} ${processStartTime(watched.pid ?? 0) ?? ''}\n`);
    reaper.stdin.write(`pid ${String(other.pid)} 1\n`);
    reaper.stdin.end();
    await once(reaper, 'exit');

    assert.deepEqual(await waitForExit([watched.pid ?? 0], 10_000), []);
    assert.ok(isAlive(other.pid ?? 0), 'the process that only shares a number is left running');
  } finally {
    watched.kill('SIGKILL');
    other.kill('SIGKILL');
  }
});
