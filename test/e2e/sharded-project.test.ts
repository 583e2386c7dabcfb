import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { execa } from 'execa';
import { startEnvironment, type Environment } from '../../src/envtest/index.ts';
import { DeploymentKind, LeaseKind, defineKind, newClient, type Client } from '../../src/runtime/index.ts';
import { eventually } from '../support/eventually.ts';
import { installedProject } from '../support/generated-project.ts';
import { findDescendant } from '../support/process-tree.ts';

interface WebApp {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; labels?: Record<string, string> };
  spec: { image?: string; port?: number; replicas?: number };
  status?: { observedGeneration?: number };
}

const WebAppKind = defineKind<WebApp>({
  apiVersion: 'demo.example.org/v1',
  kind: 'WebApp',
  plural: 'webapps',
  namespaced: true,
});

/** The ring is named for the project; the shard for the host, as a pod's name in a cluster. */
const SHARD_LABEL = 'shard.alpha.sharding.timebertt.dev/webapp-operator';
const RING_LABEL = 'alpha.sharding.timebertt.dev/controllerring';

/**
 * The path of a user who picks sharding from the start: `init --sharded`, `create api`, then `npm
 * start` on the current kubeconfig. The one replica leads, so it runs the sharder, and holds its
 * shard Lease: it labels each WebApp with its shard before reconciling it, the Deployment it
 * creates carries the same label, and SIGTERM releases its shard Lease.
 */
describe('a project made with init --sharded', () => {
  let root = '';
  let project = '';
  let env: Environment;
  let client: Client;

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'tsoperator-sharded-'));
    project = await installedProject(
      root,
      [['--group', 'demo', '--version', 'v1', '--kind', 'WebApp', '--image', 'nginx:1.27', '--port', '80']],
      ['--sharded'],
    );
    env = await startEnvironment({ crdPaths: [join(project, 'config', 'crd', 'bases')] });
    client = newClient({ kubeConfig: env.kubeConfig });
  });
  after(async () => {
    await env?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('assigns each WebApp to its shard, reconciles it there, and releases the shard Lease on SIGTERM', async () => {
    const manager = execa(
      'npm',
      ['start', '--', '--metrics-bind-address=0', '--health-probe-bind-address=0'],
      {
        cwd: project,
        env: {
          KUBECONFIG: env.admin.kubeconfigPath,
          // As the generated Deployment sets it, from the pod's name.
          SHARD_NAME: 'webapp-shard-0',
          PATH: `${dirname(process.execPath)}${delimiter}${process.env['PATH'] ?? ''}`,
        },
        all: true,
        reject: false,
      },
    );
    const shard = 'webapp-shard-0';
    try {
      const names = ['shop', 'blog', 'wiki'];
      for (const name of names)
        await client.create({
          apiVersion: WebAppKind.apiVersion,
          kind: WebAppKind.kind,
          metadata: { namespace: 'default', name },
          spec: { image: 'nginx:1.27', port: 80, replicas: 1 },
        });
      for (const name of names) {
        const key = { namespace: 'default', name };
        const app = await eventually(async () => {
          const current = await client.get(WebAppKind, key);
          return current?.status?.observedGeneration === 1 ? current : undefined;
        }, `the manager to reconcile WebApp ${name}`);
        assert.equal(app.metadata.labels?.[SHARD_LABEL], shard, `${name} is assigned to the one shard`);
        const deployment = await client.get(DeploymentKind, key);
        assert.equal(
          deployment?.metadata?.labels?.[SHARD_LABEL],
          shard,
          `the Deployment of ${name} is on its WebApp's shard`,
        );
      }
      const lease = await client.direct().get(LeaseKind, { namespace: 'default', name: shard });
      assert.equal(lease?.spec?.holderIdentity, shard, 'the replica holds its shard Lease');
      assert.equal(lease?.metadata?.labels?.[RING_LABEL], 'webapp-operator', 'labelled with its ring');
    } finally {
      // SIGTERM to the manager itself, as the kubelet sends it (npm does not wait for its child).
      const pid = await eventually(
        () => findDescendant(manager.pid ?? 0, 'src/main.ts'),
        'npm start to run the manager',
      );
      process.kill(pid, 'SIGTERM');
    }
    const ended = await manager;
    assert.equal(ended.exitCode, 0, ended.all);
    const released = await client.direct().get(LeaseKind, { namespace: 'default', name: shard });
    assert.equal(released?.spec?.holderIdentity ?? '', '', `the shard Lease is released:\n${ended.all}`);
  });
});
