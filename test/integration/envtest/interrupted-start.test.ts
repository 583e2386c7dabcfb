import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { resolveAssets } from '../../../src/envtest/index.ts';
import { isAlive } from '../../../src/envtest/process-alive.ts';
import { repoRoot, spawnTsoperatorSource } from '../../support/cli.ts';
import { findDescendant } from '../../support/process-tree.ts';
import { waitForExit } from '../../support/processes.ts';

interface Run {
  child: ChildProcess;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
  output: { stdout: string; stderr: string };
}

/** The pids of the processes whose command line mentions `text`. */
async function processesMentioning(text: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(text)) pids.push(Number(entry));
  }
  return pids;
}

/** `tsoperator envtest start --nodes 1` on the binaries of `binDir`, from the sources, as a child to signal. */
function startCli(binDir: string): Run {
  const child = spawnTsoperatorSource(['envtest', 'start', '--nodes', '1'], repoRoot, {
    ...process.env,
    KUBEBUILDER_ASSETS: binDir,
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (d: string) => (output.stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (output.stderr += d));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, exited, output };
}

// A signal while `envtest start` is still starting ends the start there: the processes started so
// far are stopped before the command exits 130 or 143, as a shell reports a command the signal
// ended. The kwok here never turns ready, so the start cannot finish before the signal.
describe('tsoperator envtest start, interrupted while it starts', () => {
  const binDir = mkdtempSync(join(tmpdir(), 'tsoperator-interrupted-start-'));
  before(async () => {
    const real = (await resolveAssets({ nodes: true })).dir;
    for (const name of ['etcd', 'kube-apiserver', 'kubectl', 'kube-controller-manager', 'kube-scheduler']) {
      symlinkSync(join(real, name), join(binDir, name));
    }
    writeFileSync(join(binDir, 'kwok'), '#!/bin/sh\nwhile :; do sleep 1; done\n', { mode: 0o755 });
  });
  after(() => rmSync(binDir, { recursive: true, force: true }));

  /** The pid of the CLI's descendant running binary `name`, once it has spawned. */
  const spawned = async (run: Run, name: string): Promise<number> => {
    for (;;) {
      assert.equal(run.child.exitCode, null, `the start ended before ${name} ran:\n${run.output.stderr}`);
      const pid = await findDescendant(run.child.pid ?? 0, `${join(binDir, name)} `);
      if (pid !== undefined) return pid;
      await sleep(50);
    }
  };
  /** The control plane's folder, from etcd's --data-dir. */
  const folderOf = async (etcdPid: number): Promise<string> => {
    const args = (await readFile(`/proc/${etcdPid}/cmdline`, 'utf8')).split('\0');
    const dataDir = args.find((a) => a.startsWith('--data-dir='))?.slice('--data-dir='.length);
    assert.ok(dataDir);
    return dirname(dataDir);
  };

  const assertAborted = async (run: Run, pids: number[], folder: string, code: number, signal: string) => {
    const [exitCode] = await run.exited;
    assert.equal(exitCode, code, run.output.stderr);
    assert.match(
      run.output.stderr,
      new RegExp(
        `^Error: ${signal} interrupted the start of the control plane: what had started is stopped\\.$`,
        'm',
      ),
    );
    assert.doesNotMatch(run.output.stderr, /\n\s+at /);
    assert.equal(run.output.stdout, '', 'no kubeconfig is offered for a control plane that did not start');
    assert.deepEqual(pids.filter(isAlive), [], 'the processes it had started are stopped before it exits');
    assert.deepEqual(await processesMentioning(folder), [], 'no process of this control plane is left');
    assert.equal(existsSync(folder), false, 'the control plane folder is removed');
  };

  it('SIGINT once kube-apiserver runs: stops etcd and kube-apiserver, exits 130', async () => {
    const run = startCli(binDir);
    const etcd = await spawned(run, 'etcd');
    const apiServer = await spawned(run, 'kube-apiserver');
    const folder = await folderOf(etcd);
    const reaper = await findDescendant(run.child.pid ?? 0, 'reaper');
    run.child.kill('SIGINT');
    await assertAborted(run, [etcd, apiServer], folder, 130, 'SIGINT');
    assert.deepEqual(
      await waitForExit(reaper === undefined ? [] : [reaper], 10_000),
      [],
      'the reaper is released',
    );
  });

  it('SIGTERM once kwok runs: stops all five processes, exits 143', async () => {
    const run = startCli(binDir);
    const etcd = await spawned(run, 'etcd');
    const folder = await folderOf(etcd);
    const others = [];
    for (const name of ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok']) {
      others.push(await spawned(run, name));
    }
    run.child.kill('SIGTERM');
    await assertAborted(run, [etcd, ...others], folder, 143, 'SIGTERM');
  });
});
