import './heap-peak.ts';
import { parseArgs } from 'node:util';
import { Manager } from '../../../src/runtime/manager/manager.ts';
import { WebAppReconciler } from './webapp-reconciler.ts';

// The TypeScript WebApp operator of the benchmark: a manager for the cluster of $KUBECONFIG with
// one controller. Usage: node webapp-operator.ts [--concurrency 10] [--http1]

const { values } = parseArgs({
  options: { concurrency: { type: 'string', default: '10' }, http1: { type: 'boolean', default: false } },
});
const mgr = await Manager.create({
  metricsBindAddress: '0',
  healthProbeBindAddress: '0',
  logLevel: 'error',
  http2: !values.http1,
});
new WebAppReconciler(mgr.client).setup(mgr, Number(values.concurrency));
await mgr.start();
