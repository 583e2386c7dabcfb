import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startEnvironment } from '../../src/envtest/index.ts';
import { newClient } from '../../src/runtime/client/client.ts';
import { transportFor } from '../../src/runtime/client/transport.ts';
import { goPeer } from '../support/go-peer.ts';
import { bundleWebAppOperator } from '../support/operator-bundle.ts';
import { rotated } from '../support/rotation.ts';
import { contenders } from './contenders.ts';
import { resultsTable } from './results-table.ts';
import { runContender, type ContenderRun } from './run-contender.ts';
import { createWebApps } from './webapp-fixtures.ts';
import { deleteWorkload } from './workload-cleanup.ts';

// One envtest control plane; each round runs every contender once, in turn, on its own namespace
// of pre-created WebApps, and cleans up after it. Prints a markdown table of the medians, with
// what the API server served for each contender's last round.

const execFileAsync = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    webapps: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    only: { type: 'string' },
    'timeout-seconds': { type: 'string', default: '600' },
    'controller-manager': { type: 'boolean', default: false },
    // Node flags for the TypeScript contenders (e.g. V8 heap sizing), space-separated.
    'node-flags': { type: 'string', default: '' },
  },
});
const count = Number(values.webapps);
const only = values.only?.split(',');
const nodeFlags = values['node-flags'].split(' ').filter(Boolean);
const operatorBundle = await bundleWebAppOperator();
const chosen = contenders(
  here,
  goPeer(join(here, 'go'), 'operator'),
  operatorBundle,
  Number(values.concurrency),
  nodeFlags,
).filter((c) => !only || only.includes(c.name));

await using env = await startEnvironment({
  crdPaths: [join(here, 'crd')],
  controllerManager: values['controller-manager'],
  // envtest's default range (a /24) runs out of Service IPs after about 250 Services.
  apiServerArgs: ['--service-cluster-ip-range=10.0.0.0/16'],
});
const cluster = {
  kubeConfig: env.kubeConfig,
  kubeconfigPath: env.kubeconfigPath,
  controlPlanePids: env.pids,
};
// Deleting 10,000 WebApps in one collection DELETE takes the API server longer than the
// transport's default 30 s.
const transport = transportFor(env.kubeConfig, { requestTimeoutMs: 600_000 });
const client = newClient({ transport });
await fillCompileCache();
const runs: ContenderRun[] = [];
for (let round = 0; round < Number(values.rounds); round++) {
  for (const contender of rotated(chosen, round)) {
    const namespace = `${contender.name}-${round}`;
    await createWebApps(client, namespace, count);
    const run = await runContender(
      contender,
      cluster,
      namespace,
      count,
      Number(values['timeout-seconds']) * 1000,
    );
    console.error(
      `round ${round}: ${run.name} ${run.seconds.toFixed(2)} s, ` +
        `${(run.peakRssBytes / 2 ** 20).toFixed(0)} MiB (anonymous ${(run.peakAnonymousRssBytes / 2 ** 20).toFixed(0)} MiB), ${run.cpuSeconds.toFixed(2)} CPU-s, control plane ${run.controlPlaneCpuSeconds.toFixed(2)} CPU-s, ` +
        [...run.requests].map(([key, n]) => `${key}: ${n}`).join(', '),
    );
    runs.push(run);
    await deleteWorkload(transport, client, namespace);
  }
}
console.log(resultsTable(runs, count));

/**
 * Runs each contender once against no cluster (it fails at once, looking for its kubeconfig), so
 * that Node's compile cache holds every module it loads and no round pays for stripping types.
 */
async function fillCompileCache(): Promise<void> {
  const env = { ...process.env, KUBECONFIG: join(here, 'no-such-kubeconfig'), HOME: here };
  for (const c of chosen.filter((c) => c.command === process.execPath)) {
    await execFileAsync(c.command, c.args('default'), { env }).catch(() => undefined);
  }
}
