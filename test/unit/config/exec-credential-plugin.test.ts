import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { systemClock } from '../../../src/runtime/clock/clock.ts';
import { execCredentials } from '../../../src/runtime/config/exec-credential-plugin.ts';
import { processFailures } from '../../support/process-failures.ts';

/** How long the plugin runs before it fails. */
const RUN_MS = 300;

describe('an exec plugin run that fails with nobody left waiting for it', () => {
  it('fails a request given up before or during the run with its own reason, and the run with none', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'exec-plugin-'));
    const runs = join(dir, 'runs');
    const plugin = join(dir, 'failing.sh');
    await writeFile(plugin, `#!/bin/sh\necho run >> '${runs}'\nsleep ${RUN_MS / 1000}\nexit 1\n`);
    await chmod(plugin, 0o755);
    const runCount = async (): Promise<number> =>
      (await readFile(runs, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
    const credentials = execCredentials(
      {
        apiVersion: 'client.authentication.k8s.io/v1',
        command: plugin,
        args: [],
        env: [],
        provideClusterInfo: false,
        interactiveMode: 'Never',
      },
      { server: 'https://127.0.0.1:6443' },
      systemClock,
      'test kubeconfig',
    );
    const watching = processFailures();
    try {
      // One request gives up during the run; the other waits for it and gets its failure.
      const givenUp = credentials.get(AbortSignal.timeout(50));
      const waiting = credentials.get();
      await assert.rejects(givenUp, { name: 'TimeoutError' });
      await assert.rejects(waiting, /exited with code 1/);
      assert.equal(await runCount(), 1, 'one run for both');

      // A request given up during the run leaves it alone.
      await assert.rejects(credentials.get(AbortSignal.timeout(50)), { name: 'TimeoutError' });
      await sleep(3 * RUN_MS);
      assert.equal(await runCount(), 2);

      // A request given up before it asks starts no run.
      await assert.rejects(credentials.get(AbortSignal.abort(new Error('shutting down'))), /shutting down/);
      await sleep(3 * RUN_MS);
      assert.equal(await runCount(), 2, 'no run for a request given up');
    } finally {
      watching.stop();
    }
    assert.deepEqual(watching.failures, [], 'no failed run left unhandled');
  });
});
