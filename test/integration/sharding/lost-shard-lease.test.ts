import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { LeaseKind } from '../../../src/runtime/client/kinds.ts';
import { SHARDER_IDENTITY } from '../../../src/runtime/sharding/shard-labels.ts';
import { eventuallyTrue } from '../../support/eventually.ts';
import { WidgetKind } from '../controller/support.ts';
import { ringEnvironment } from './ring-environment.ts';

const NAMESPACE = 'lost';

describe('a replica whose shard Lease is taken over', () => {
  const api = ringEnvironment(NAMESPACE);

  it('exits at once, as a lost leader does, though its unsharded reconciles still run', async () => {
    const lines: string[] = [];
    const child = spawn(process.execPath, [join(import.meta.dirname, 'testdata', 'lost-shard.ts')], {
      env: { ...process.env, KUBECONFIG: api.env.kubeconfigPath, NAMESPACE },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
    try {
      await eventuallyTrue(async () => {
        const lease = await api.client.direct().get(LeaseKind, { namespace: NAMESPACE, name: 's1' });
        return lease?.spec?.holderIdentity === 's1';
      }, 'the shard Lease held');
      await api.client.create({
        apiVersion: WidgetKind.apiVersion,
        kind: WidgetKind.kind,
        metadata: { name: 'w', namespace: NAMESPACE },
        spec: { size: 1 },
      });
      await api.client.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'slow', namespace: NAMESPACE },
      });
      await eventuallyTrue(
        () => lines.includes('B sharded w') && lines.includes('B unsharded slow'),
        'both reconciles in flight',
      );
      // The sharder declaring the shard dead: from here another shard may get its Widgets at once.
      const lease = await api.client.direct().get(LeaseKind, { namespace: NAMESPACE, name: 's1' });
      assert.ok(lease?.spec);
      await api.client.update({ ...lease, spec: { ...lease.spec, holderIdentity: SHARDER_IDENTITY } });
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
