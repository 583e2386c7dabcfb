import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import type { Environment } from '../../../src/envtest/index.ts';
import type { Client } from '../../../src/runtime/client/client.ts';
import { LeaseKind } from '../../../src/runtime/client/kinds.ts';
import { SHARDER_IDENTITY } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { startRingEnvironment } from './ring-environment.ts';

const NAMESPACE = 'lost';

describe('a replica whose shard Lease is taken over', () => {
  let env: Environment;
  let client: Client;

  before(async () => {
    ({ env, client } = await startRingEnvironment(NAMESPACE));
  });
  after(async () => {
    await env.stop();
  });

  it('exits at once, as a lost leader does, though its unsharded reconciles still run', async () => {
    const lines: string[] = [];
    const child = spawn(process.execPath, [join(import.meta.dirname, 'testdata', 'lost-shard.ts')], {
      env: { ...process.env, KUBECONFIG: env.kubeconfigPath, NAMESPACE },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
    try {
      await eventuallyTrue(async () => {
        const lease = await client.direct().get(LeaseKind, { namespace: NAMESPACE, name: 's1' });
        return lease?.spec?.holderIdentity === 's1';
      }, 'the shard Lease held');
      await client.create({
        apiVersion: WidgetKind.apiVersion,
        kind: WidgetKind.kind,
        metadata: { name: 'w', namespace: NAMESPACE },
        spec: { size: 1 },
      });
      await client.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'slow', namespace: NAMESPACE },
      });
      await eventuallyTrue(
        () => lines.includes('B sharded w') && lines.includes('B unsharded slow'),
        'both reconciles in flight',
      );
      // The sharder declaring the shard dead: from here another shard may get its Widgets at once.
      const lease = await client.direct().get(LeaseKind, { namespace: NAMESPACE, name: 's1' });
      assert.ok(lease?.spec);
      await client.update({ ...lease, spec: { ...lease.spec, holderIdentity: SHARDER_IDENTITY } });
      const code = await exited;
      assert.equal(code, 1, lines.join('\n'));
      assert.ok(
        !lines.includes('E sharded w'),
        `the sharded reconcile ran on after the shard Lease was lost:\n${lines.join('\n')}`,
      );
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    }
  });
});
