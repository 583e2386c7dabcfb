import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { execa } from 'execa';
import { resolveAssets } from '../../../src/envtest/index.ts';
import { repoRoot, runTsoperator } from '../../support/cli.ts';

describe('tsoperator envtest start', () => {
  it('runs a control plane with kwok nodes until SIGINT, printing the export of its kubeconfig', async () => {
    const child = spawn(
      process.execPath,
      [join(repoRoot, 'bin', 'tsoperator.js'), 'envtest', 'start', '--nodes', '2'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = once(child, 'exit');
    const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const match = /^export KUBECONFIG='(.+)'$/.exec(line);
    assert.ok(match?.[1], line);
    const kubeconfig = match[1];

    const kubectl = join((await resolveAssets()).dir, 'kubectl');
    const nodes = await execa(kubectl, ['get', 'nodes', '-o', 'name'], { env: { KUBECONFIG: kubeconfig } });
    assert.equal(nodes.stdout, 'node/kwok-node-0\nnode/kwok-node-1');
    assert.match(
      stderr,
      /^control plane at https:\/\/127\.0\.0\.1:\d+ with nodes kwok-node-0, kwok-node-1; Ctrl-C stops it$/m,
    );
    // The controllers of a cluster run: a Job's Pod runs on a fake Node and the Job completes.
    const env = { KUBECONFIG: kubeconfig };
    await execa(kubectl, ['create', 'job', 'once', '--image=busybox:1.37'], { env });
    await execa(kubectl, ['wait', '--for=condition=Complete', 'job/once', '--timeout=60s'], { env });

    child.kill('SIGINT');
    const [code] = (await exited) as [number | null];
    assert.equal(code, 0, stderr);
    assert.equal(existsSync(dirname(kubeconfig)), false, 'the control plane folder is removed');
  });

  it('refuses a malformed --controllers list, as a usage error', async () => {
    const result = await runTsoperator(['envtest', 'start', '--controllers', '*,job controller']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /"job controller" is not a kube-controller-manager controller list/);
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  });

  it('refuses a node count that is not a whole number, as a usage error', async () => {
    const result = await runTsoperator(['envtest', 'start', '--nodes', 'two']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /the number of nodes is a whole number from 0 to 100/);
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  });
});
