import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, afterEach, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { withFileLock } from '../../../src/envtest/lock.ts';
import { TsoperatorError } from '../../../src/errors.ts';

const LOCK_MODULE = pathToFileURL(
  join(import.meta.dirname, '..', '..', '..', 'src', 'envtest', 'lock.ts'),
).href;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('withFileLock', () => {
  const work = mkdtempSync(join(tmpdir(), 'tsoperator-lock-'));
  const children: ChildProcess[] = [];
  let count = 0;
  const lockDir = (): string => join(work, `${++count}.lock`);
  after(() => rmSync(work, { recursive: true, force: true }));
  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
    }
  });

  /** A live process that has nothing to do with any lock. */
  const bystander = (): number => {
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    children.push(child);
    assert.ok(child.pid);
    return child.pid;
  };

  /** The pid of a process that has exited. */
  const deadPid = async (): Promise<number> => {
    const child = spawn('true', { stdio: 'ignore' });
    await once(child, 'exit');
    assert.ok(child.pid);
    return child.pid;
  };

  /** Another process holding `dir` until it is killed. */
  const holder = async (dir: string): Promise<ChildProcess> => {
    const script =
      `const { withFileLock } = await import(${JSON.stringify(LOCK_MODULE)}); ` +
      `await withFileLock(${JSON.stringify(dir)}, async () => { console.log('held'); await new Promise(() => setInterval(() => {}, 1000)); });`;
    const child = spawn(process.execPath, ['--input-type=module', '--eval', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    await once(createInterface({ input: child.stdout }), 'line');
    return child;
  };

  const staleLock = (pid: number, startTime?: string): string => {
    const dir = lockDir();
    mkdirSync(dir);
    writeFileSync(join(dir, 'owner'), `${pid} ${startTime ?? ''}`);
    return dir;
  };

  const staleLegacyLock = (pid: number): string => {
    const dir = lockDir();
    mkdirSync(dir);
    writeFileSync(join(dir, 'pid'), String(pid));
    return dir;
  };

  it('takes over a lock whose pid now belongs to another live process', { timeout: 30_000 }, async () => {
    const dir = staleLock(bystander(), '1');
    assert.equal(await withFileLock(dir, () => Promise.resolve('ran'), { timeoutMs: 10_000 }), 'ran');
    assert.equal(existsSync(dir), false);
  });

  it('takes over a lock whose owner was killed', { timeout: 30_000 }, async () => {
    const dir = lockDir();
    const child = await holder(dir);
    child.kill('SIGKILL');
    await once(child, 'exit');
    assert.equal(await withFileLock(dir, () => Promise.resolve('ran'), { timeoutMs: 10_000 }), 'ran');
  });

  it('takes over a lock folder left without a pid', { timeout: 30_000 }, async () => {
    const dir = lockDir();
    mkdirSync(dir);
    const past = new Date(Date.now() - 60_000);
    utimesSync(dir, past, past);
    assert.equal(await withFileLock(dir, () => Promise.resolve('ran'), { timeoutMs: 10_000 }), 'ran');
  });

  it(
    'waits for a live owner only so long, then names the lock and the process',
    { timeout: 30_000 },
    async () => {
      const dir = lockDir();
      const child = await holder(dir);
      let busy = 0;
      await assert.rejects(
        withFileLock(dir, () => Promise.resolve('ran'), { timeoutMs: 1500, onBusy: () => void busy++ }),
        (err: unknown) => {
          assert.ok(err instanceof TsoperatorError);
          assert.match(
            err.message,
            new RegExp(
              `^Waited 2 s without progress for the lock ${escape(dir)}, held by process ${child.pid} \\(${escape(process.execPath)} --input-type=module --eval .+\\)\\. If that process is stuck, stop it or remove ${escape(dir)}, then try again\\.$`,
            ),
          );
          return true;
        },
      );
      assert.ok(busy > 0);
      assert.equal(existsSync(dir), true, "the owner's lock is left alone");
    },
  );

  it(
    "trusts the live owner of an earlier version's lock (its pid file alone)",
    { timeout: 30_000 },
    async () => {
      const pid = bystander();
      const dir = staleLegacyLock(pid);
      const past = new Date(Date.now() - 60_000);
      utimesSync(dir, past, past);
      await assert.rejects(
        withFileLock(dir, () => Promise.resolve('ran'), { timeoutMs: 1000 }),
        new RegExp(`held by process ${pid} \\(sleep 60\\)\\.`),
      );
      assert.equal(existsSync(join(dir, 'pid')), true, 'the live lock is left alone');
      const dead = staleLegacyLock(await deadPid());
      assert.equal(await withFileLock(dead, () => Promise.resolve('ran'), { timeoutMs: 10_000 }), 'ran');
    },
  );

  it(
    'trusts a live pid written without a start time, as on a system without /proc',
    { timeout: 30_000 },
    async () => {
      const pid = bystander();
      const dir = staleLock(pid);
      await assert.rejects(
        withFileLock(dir, () => Promise.resolve('ran'), { timeoutMs: 1000 }),
        new RegExp(
          `^TsoperatorError: Waited 1 s without progress for the lock ${escape(dir)}, held by process ${pid} \\(sleep 60\\)\\.`,
        ),
      );
    },
  );

  it(
    'lets one process at a time take over a stale lock that several find at once',
    { timeout: 120_000 },
    async () => {
      const dead = await deadPid();
      for (let round = 0; round < 4; round++) {
        const dir = staleLock(dead, '1');
        const log = join(work, `${count}.log`);
        const script =
          `const { appendFileSync } = await import('node:fs'); ` +
          `const { withFileLock } = await import(${JSON.stringify(LOCK_MODULE)}); ` +
          `await withFileLock(${JSON.stringify(dir)}, async () => { ` +
          `appendFileSync(${JSON.stringify(log)}, 'enter ' + process.pid + '\\n'); ` +
          `await new Promise((r) => setTimeout(r, 300)); ` +
          `appendFileSync(${JSON.stringify(log)}, 'exit ' + process.pid + '\\n'); }, { timeoutMs: 60_000 });`;
        const waiters = Array.from({ length: 4 }, () => {
          const child = spawn(process.execPath, ['--input-type=module', '--eval', script], {
            stdio: ['ignore', 'ignore', 'pipe'],
          });
          children.push(child);
          let stderr = '';
          child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
          return once(child, 'exit').then(([code]) => ({ code: code as number | null, stderr }));
        });
        for (const outcome of await Promise.all(waiters)) assert.deepEqual(outcome, { code: 0, stderr: '' });
        const lines = readFileSync(log, 'utf8').trim().split('\n');
        assert.equal(lines.length, 8, lines.join('\n'));
        for (let i = 0; i < lines.length; i += 2) {
          const pid = lines[i]?.split(' ')[1];
          assert.deepEqual([lines[i], lines[i + 1]], [`enter ${pid}`, `exit ${pid}`], lines.join('\n'));
        }
        assert.equal(existsSync(dir), false);
      }
    },
  );

  it('waits as long as the owner reports progress', { timeout: 30_000 }, async () => {
    const dir = lockDir();
    const progress = join(work, `${count}.progress`);
    const script =
      `const { appendFileSync } = await import('node:fs'); ` +
      `const { withFileLock } = await import(${JSON.stringify(LOCK_MODULE)}); ` +
      `await withFileLock(${JSON.stringify(dir)}, async () => { console.log('held'); ` +
      `for (let i = 0; i < 8; i++) { appendFileSync(${JSON.stringify(progress)}, 'step\\n'); await new Promise((r) => setTimeout(r, 400)); } });`;
    const child = spawn(process.execPath, ['--input-type=module', '--eval', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    await once(createInterface({ input: child.stdout }), 'line');
    const result = await withFileLock(dir, () => Promise.resolve('ran'), {
      timeoutMs: 1500,
      progressFile: progress,
    });
    assert.equal(result, 'ran');
    assert.equal(readFileSync(progress, 'utf8').split('\n').length - 1, 8, 'the owner finished first');
  });

  it('stops waiting when its signal aborts', { timeout: 30_000 }, async () => {
    const dir = lockDir();
    await holder(dir);
    const controller = new AbortController();
    const waiting = withFileLock(dir, () => Promise.resolve('ran'), { signal: controller.signal });
    controller.abort(new Error('interrupted'));
    await assert.rejects(waiting, /interrupted/);
  });
});
