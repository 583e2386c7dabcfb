import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CoordinationV1Api } from '@kubernetes/client-node';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newClient } from '../../../src/runtime/client/client.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { LeaderElectionLostError } from '../../../src/runtime/leader/leader-election-lost-error.ts';
import type { Manager } from '../../../src/runtime/manager/manager.ts';
import { eventually } from '../../support/eventually.ts';
import { runInBackground, testManager } from './support.ts';

const LEASE = { leaseDuration: 2000, renewDeadline: 1500, retryPeriod: 200 };

describe('managers with leader election', () => {
  let env: Environment;
  before(async () => {
    env = await startEnvironment();
    await newConfigMap('kube-system', 'probe');
  });
  after(() => env.stop());

  async function newConfigMap(namespace: string, name: string): Promise<void> {
    await newClient({ kubeConfig: env.kubeConfig }).create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace },
    });
  }

  /** A manager whose reconciles are appended to `log` with its name. */
  async function candidate(name: string, leaseName: string, log: string[]): Promise<Manager> {
    const mgr = await testManager(env, {
      leaderElection: true,
      leaderElectionId: leaseName,
      leaderElectionNamespace: 'default',
      ...LEASE,
    });
    mgr
      .controller(`cm-${name}`)
      .for(ConfigMapKind)
      .complete({
        reconcile: async (req) => {
          log.push(`${name} ${req.namespace}/${req.name}`);
          return {};
        },
      });
    return mgr;
  }

  it('runs controllers in exactly one manager, and hands over at once when the leader stops', async () => {
    const log: string[] = [];
    const a = runInBackground(await candidate('a', 'handover', log));
    await eventually(
      async () => (log.some((l) => l.startsWith('a ')) ? true : undefined),
      'a to lead and reconcile',
    );
    const b = runInBackground(await candidate('b', 'handover', log));
    await newConfigMap('default', 'while-a-leads');
    await eventually(
      async () => (log.includes('a default/while-a-leads') ? true : undefined),
      'a to reconcile the new object',
    );
    assert.ok(!log.some((l) => l.startsWith('b ')), `b reconciled while a led: ${log.join(', ')}`);

    const stoppedAt = Date.now();
    await a.stop();
    const countAtStop = log.length;
    await eventually(async () => (log.some((l) => l.startsWith('b ')) ? true : undefined), 'b to take over');
    // Released on shutdown: b does not wait out the lease, only its next retry.
    assert.ok(
      Date.now() - stoppedAt < LEASE.leaseDuration + LEASE.retryPeriod * 5,
      'b took over only after the lease expired',
    );
    assert.ok(
      log.slice(countAtStop).every((l) => l.startsWith('b ')),
      `a reconciled after it stopped: ${log.join(', ')}`,
    );
    await b.stop();
  });

  it('stops with LeaderElectionLostError when another holder takes the lease', async () => {
    const log: string[] = [];
    const run = runInBackground(await candidate('c', 'stolen', log));
    await eventually(async () => (log.length > 0 ? true : undefined), 'c to lead');
    const leases = env.kubeConfig.makeApiClient(CoordinationV1Api);
    const lease = await leases.readNamespacedLease({ namespace: 'default', name: 'stolen' });
    await leases.replaceNamespacedLease({
      namespace: 'default',
      name: 'stolen',
      body: { ...lease, spec: { ...lease.spec, holderIdentity: 'usurper', leaseDurationSeconds: 60 } },
    });
    await assert.rejects(run.done, (err: unknown) => err instanceof LeaderElectionLostError);
  });
});
