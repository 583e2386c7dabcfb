import { parseArgs } from 'node:util';
import { ConfigMapKind } from '../../src/runtime/client/kinds.ts';
import { Manager } from '../../src/runtime/manager/manager.ts';
import { done } from '../../src/runtime/reconcile/result.ts';

// The TypeScript side of the hand-over benchmark: one replica of a manager with leader election
// and one ConfigMap controller, for the cluster of $KUBECONFIG. It prints on stdout the moments
// the benchmark times, one "<event> <unix ms>" line each, on the wall clock it shares with every
// replica: started (the manager is about to start), synced (its cache holds all the ConfigMaps:
// before it leads with --warmup, only after without), first-reconcile (only a leader reconciles).
// Usage: node ts-replica.ts --namespace NS --lease NAME [--warmup] [--lease-duration MS]
// [--renew-deadline MS] [--retry-period MS]

const { values } = parseArgs({
  options: {
    namespace: { type: 'string', default: 'default' },
    lease: { type: 'string', default: 'handover' },
    warmup: { type: 'boolean', default: false },
    'lease-duration': { type: 'string', default: '15000' },
    'renew-deadline': { type: 'string', default: '10000' },
    'retry-period': { type: 'string', default: '2000' },
  },
});

function moment(event: string): void {
  process.stdout.write(`${event} ${Date.now()}\n`);
}

const mgr = await Manager.create({
  namespace: values.namespace,
  leaderElection: true,
  leaderElectionId: values.lease,
  leaderElectionNamespace: values.namespace,
  leaseDuration: Number(values['lease-duration']),
  renewDeadline: Number(values['renew-deadline']),
  retryPeriod: Number(values['retry-period']),
  warmup: values.warmup,
  metricsBindAddress: '0',
  healthProbeBindAddress: '0',
  logLevel: 'error',
});
let reconciled = false;
mgr.controller(ConfigMapKind).complete({
  reconcile: () => {
    if (!reconciled) moment('first-reconcile');
    reconciled = true;
    return Promise.resolve(done());
  },
});
// The manager starts the cache before it competes with --warmup, once it leads without.
void mgr.cache.waitForCacheSync().then((synced) => synced && moment('synced'));
moment('started');
await mgr.start();
