import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startEnvironment } from '../../src/envtest/index.ts';
import { newClient } from '../../src/runtime/client/client.ts';
import { transportFor } from '../../src/runtime/client/transport.ts';
import { deleteWorkload } from '../operator/workload-cleanup.ts';
import { median } from '../support/median.ts';
import { rotated } from '../support/rotation.ts';
import { webAppOperators } from '../support/webapp-operators.ts';
import { stormRound, type StormRun } from './storm-round.ts';

// Informers through a 429 storm, for the WebApp operators of bench/operator on one envtest
// control plane, each behind its own HTTP proxy that can answer 429 in the API server's place.
// Each round runs every storm length for every contender in turn (the order rotating). Prints a
// markdown table.

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    only: { type: 'string', default: 'controller-runtime,tsoperator' },
    // Storm lengths in seconds, comma-separated.
    storms: { type: 'string', default: '8,20' },
    // What the 429s ask: API Priority and Fairness answers 1.
    'retry-after': { type: 'string', default: '1' },
    'cap-seconds': { type: 'string', default: '120' },
    // From the operator's first reconcile to the storm.
    'settle-seconds': { type: 'string', default: '2' },
    // An operator bundle of an earlier revision, run as the contender tsoperator-before.
    'before-bundle': { type: 'string' },
  },
});
const chosen = await webAppOperators(values.only.split(','), values['before-bundle']);
const storms = values.storms.split(',').map(Number);
const retryAfterSeconds = Number(values['retry-after']);
const capSeconds = Number(values['cap-seconds']);

await using env = await startEnvironment({
  crdPaths: [fileURLToPath(new URL('../operator/crd', import.meta.url))],
});
const transport = transportFor(env.kubeConfig);
const client = newClient({ transport });
const runs: StormRun[] = [];
for (let round = 0; round < Number(values.rounds); round++) {
  for (const stormSeconds of storms) {
    for (const contender of rotated(chosen, round)) {
      const namespace = `storm-${contender.name}-${stormSeconds}-${round}`;
      const run = await stormRound(
        contender,
        env.kubeConfig,
        client,
        namespace,
        { ms: stormSeconds * 1000, retryAfterSeconds },
        capSeconds * 1000,
        Number(values['settle-seconds']) * 1000,
      );
      console.error(
        `round ${round}: ${run.name} through ${stormSeconds} s: seen ${seconds(run.lateSeconds)} after, ${run.turnedAway} requests turned away`,
      );
      runs.push(run);
      await deleteWorkload(transport, client, namespace);
    }
  }
}
console.log(stormTable(runs));

function seconds(s: number | undefined): string {
  return s === undefined ? 'not within the cap' : `${s.toFixed(1)} s`;
}

function stormTable(all: readonly StormRun[]): string {
  const lines = [
    `| contender | storm (Retry-After ${retryAfterSeconds} s) | seen after its end, per round | median | requests turned away, per round |`,
    '| --------- | ----- | ----------------------------- | ------ | ------------------------------- |',
  ];
  for (const stormSeconds of storms) {
    for (const c of chosen) {
      const mine = all.filter((r) => r.name === c.name && r.stormSeconds === stormSeconds);
      // A round past the cap counts as the cap: the median stays a lower bound then.
      const times = mine.map((r) => r.lateSeconds ?? capSeconds);
      const capped = mine.some((r) => r.lateSeconds === undefined) ? ' (≥, capped)' : '';
      lines.push(
        `| ${c.name} | ${stormSeconds} s | ${mine.map((r) => seconds(r.lateSeconds)).join(', ')} | ` +
          `${median(times).toFixed(1)} s${capped} | ${mine.map((r) => r.turnedAway).join(', ')} |`,
      );
    }
  }
  return lines.join('\n');
}
