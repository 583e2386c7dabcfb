import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { startEnvironment } from '../../../src/envtest/index.ts';
import { isAlive } from '../../../src/envtest/process-alive.ts';
import { ManagedProcess } from '../../../src/envtest/process.ts';
import { waitUntilReady } from '../../../src/envtest/wait.ts';
import { TsoperatorError } from '../../../src/errors.ts';
import { waitForExit } from '../../support/processes.ts';

// A start that fails half-way must leave nothing running: no caller holds the process being waited on.
describe('a control-plane start that fails', () => {
  let binDir: string;
  before(async () => {
    binDir = await mkdtemp(join(tmpdir(), 'tsoperator-failed-start-'));
    // A kwok that writes its pid and never answers /healthz.
    const kwok = join(binDir, 'kwok');
    await writeFile(kwok, `#!/bin/sh\necho $$ > "${join(binDir, 'kwok.pid')}"\nexec sleep 120\n`);
    await chmod(kwok, 0o755);
  });
  after(() => rm(binDir, { recursive: true, force: true }));

  it('stops a process that is not ready in time', async () => {
    const process = new ManagedProcess('sleep', 'sleep', ['120']);
    await assert.rejects(
      waitUntilReady(process, () => Promise.resolve(false), 300),
      /sleep was not ready after 0.3 s/,
    );
    assert.equal(process.running, false);
    assert.equal(isAlive(process.pid), false);
  });

  it('stops a process whose wait is aborted, rejecting with the reason', async () => {
    const process = new ManagedProcess('sleep', 'sleep', ['120']);
    const controller = new AbortController();
    const waiting = waitUntilReady(process, () => Promise.resolve(false), 60_000, controller.signal);
    controller.abort(new TsoperatorError('interrupted'));
    await assert.rejects(waiting, /^TsoperatorError: interrupted$/);
    assert.equal(process.running, false);
    assert.equal(isAlive(process.pid), false);
  });

  it('hands a process to the reaper as it spawns, so a test killed during its start leaves it not behind', async () => {
    const child = spawn(
      globalThis.process.execPath,
      [join(import.meta.dirname, 'testdata', 'start-kwok-and-hang.ts'), binDir],
      { stdio: 'inherit' },
    );
    const pidFile = join(binDir, 'kwok.pid');
    let kwokPid = 0;
    for (let i = 0; i < 300 && kwokPid === 0; i++) {
      kwokPid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim()) || 0;
      if (kwokPid === 0) await sleep(100);
    }
    assert.ok(kwokPid > 0, 'the fake kwok started');
    child.kill('SIGKILL');
    await once(child, 'exit');
    assert.deepEqual(await waitForExit([kwokPid], 20_000), []);
  });

  it('says which binaries a folder made without Go lacks, before it starts anything', async () => {
    await assert.rejects(startEnvironment({ nodes: 1, binaryAssetsDir: binDir }), (err: unknown) => {
      assert.ok(err instanceof TsoperatorError);
      assert.match(err.message, /lacks kube-controller-manager, kube-scheduler, which this environment runs/);
      return true;
    });
  });

  it('does not crash the test process when a binary cannot be spawned', async () => {
    assert.throws(() => new ManagedProcess('missing', join(binDir, 'missing'), []), /could not start/);
    // The spawn's 'error' event comes a tick later; unheard, it would end this process.
    await sleep(100);
  });
});
