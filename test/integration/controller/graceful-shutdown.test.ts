import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CoordinationV1Api, CoreV1Api } from '@kubernetes/client-node';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { eventually } from '../../support/eventually.ts';

describe('SIGTERM during slow reconciles', () => {
  let env: Environment;
  before(async () => {
    env = await startEnvironment();
  });
  after(() => env.stop());

  it('lets them finish, releases the leader lease and exits 0', async () => {
    const core = env.kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'slow' } } });
    const child = spawn(process.execPath, [join(import.meta.dirname, 'testdata', 'slow-operator.ts')], {
      env: { ...process.env, KUBECONFIG: env.kubeconfigPath, SLOW_MS: '1500' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = once(child, 'exit');
    try {
      await core.createNamespacedConfigMap({ namespace: 'slow', body: { metadata: { name: 'a' } } });
      await core.createNamespacedConfigMap({ namespace: 'slow', body: { metadata: { name: 'b' } } });
      await eventually(async () => (output.includes('started ') ? true : undefined), 'a reconcile to start');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      assert.equal(code, 0, output);
    } finally {
      child.kill('SIGKILL');
    }
    const lines = output.trim().split('\n');
    const started = lines.filter((l) => l.startsWith('started '));
    // The reconcile in flight finished, un-aborted; no new one started after the signal.
    assert.equal(started.length, 1, output);
    assert.equal(lines.filter((l) => l.startsWith('finished ')).length, 1, output);
    assert.match(output, /finished [ab] aborted=false\n/);
    assert.match(output, /exited cleanly\n$/);
    const lease = await env.kubeConfig
      .makeApiClient(CoordinationV1Api)
      .readNamespacedLease({ namespace: 'slow', name: 'slow-operator' });
    assert.ok(!lease.spec?.holderIdentity, `lease still held by ${lease.spec?.holderIdentity}`);
  });
});
