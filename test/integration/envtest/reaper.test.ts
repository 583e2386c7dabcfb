import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { it } from 'node:test';
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
