import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startEnvironment } from '../../src/envtest/index.ts';
import { newClient } from '../../src/runtime/client/client.ts';
import { fillConfigMaps } from '../support/config-maps.ts';
import { goPeer } from '../support/go-peer.ts';
import { rotated } from '../support/rotation.ts';
import type { HandOver } from './hand-over.ts';
import { watchLeases } from './lease-watch.ts';
import { pairRound, type Bench } from './pair-round.ts';
import { peers, type Standby } from './peers.ts';
import { resultsTable } from './results-table.ts';

// One envtest control plane with `--objects` ConfigMaps; each round runs, for both peers and both
// kinds of standby (in an order that rotates each round), a pair that hands over twice: kill -9
// of the leader, then SIGTERM of the next one. Prints a markdown table of the medians.

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    objects: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '5' },
    'lease-duration': { type: 'string', default: '15000' },
    'renew-deadline': { type: 'string', default: '10000' },
    'retry-period': { type: 'string', default: '2000' },
    'settle-ms': { type: 'string', default: '1000' },
    only: { type: 'string' },
  },
});
const only = values.only?.split(',');
const chosen = peers(here, goPeer(join(here, 'go'), 'handover')).filter(
  (p) => !only || only.includes(p.name),
);
const pairs = chosen.flatMap((peer) =>
  (['cold', 'warm'] as const).map((standby: Standby) => ({ peer, standby })),
);

await using env = await startEnvironment();
const namespace = 'handover';
const objects = Number(values.objects);
await fillConfigMaps(newClient({ kubeConfig: env.kubeConfig }), namespace, objects);
const watching = new AbortController();
const bench: Bench = {
  leases: await watchLeases(env.kubeConfig, namespace, watching.signal),
  env: { ...process.env, KUBECONFIG: env.kubeconfigPath },
  namespace,
  objects,
  timings: {
    leaseDuration: Number(values['lease-duration']),
    renewDeadline: Number(values['renew-deadline']),
    retryPeriod: Number(values['retry-period']),
  },
  settleMs: Number(values['settle-ms']),
};
const runs: HandOver[] = [];
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const { peer, standby } of rotated(pairs, round)) {
      for (const run of await pairRound(bench, peer, standby, round)) {
        console.error(describe(run));
        runs.push(run);
      }
    }
  }
} finally {
  watching.abort();
}
console.log(resultsTable(runs));

function describe(run: HandOver): string {
  const head = `round ${run.round}: ${run.peer} ${run.standby} ${run.scenario}`;
  if (run.miss) return `${head}: missed (${run.miss})`;
  const figures = (['total', 'released', 'acquired', 'afterAcquire', 'synced'] as const)
    .filter((f) => run[f] !== undefined)
    .map((f) => `${f} ${run[f]?.toFixed(0)} ms`);
  return `${head}: ${figures.join(', ')}; old leader exited ${run.oldLeaderExit ?? '?'}`;
}
