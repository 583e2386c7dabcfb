import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startEnvironment } from '../../src/envtest/index.ts';
import { newClient } from '../../src/runtime/client/client.ts';
import { transportFor } from '../../src/runtime/client/transport.ts';
import { median } from '../support/median.ts';
import { rotated } from '../support/rotation.ts';
import { webAppOperators } from '../support/webapp-operators.ts';
import { deleteWorkload } from '../operator/workload-cleanup.ts';
import { quietPeriod, type QuietRun } from './quiet-period.ts';
import { silencedRound, type SilencedRun } from './silenced-round.ts';
import { WatchAudit } from './watch-audit.ts';

// Recovery from a silently dead path, and the churn of a quiet period, for the WebApp operators
// of bench/operator on one envtest control plane, each behind its own severable TCP proxy.
// Each round runs every contender in turn (the order rotating); then, unless --quiet-minutes 0,
// the contenders run side by side on an unchanging cluster. Prints markdown tables.

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    only: { type: 'string', default: 'controller-runtime,tsoperator' },
    'cap-seconds': { type: 'string', default: '180' },
    'quiet-minutes': { type: 'string', default: '10' },
    // From the operator's first reconcile to the silence: its writes done, and, longer, its
    // watches past their first bookmark.
    'settle-seconds': { type: 'string', default: '2' },
    // An operator bundle of an earlier revision (bench/support/operator-bundle.ts of its
    // bench/operator/ts/webapp-operator.ts), run as the contender tsoperator-before.
    'before-bundle': { type: 'string' },
  },
});
const chosen = await webAppOperators(values.only.split(','), values['before-bundle']);
const quietMs = Number(values['quiet-minutes']) * 60_000;
if (quietMs > 0 && chosen.filter((c) => c.name !== 'controller-runtime').length > 1) {
  throw new Error(
    'the quiet period tells one TypeScript contender from controller-runtime: pass --quiet-minutes 0',
  );
}

using audit = new WatchAudit();
await using env = await startEnvironment({
  crdPaths: [fileURLToPath(new URL('../operator/crd', import.meta.url))],
  apiServerArgs: audit.apiServerArgs,
});
const transport = transportFor(env.kubeConfig);
const client = newClient({ transport });
const runs: SilencedRun[] = [];
for (let round = 0; round < Number(values.rounds); round++) {
  for (const contender of rotated(chosen, round)) {
    const namespace = `silent-${contender.name}-${round}`;
    const run = await silencedRound(
      contender,
      env.server,
      env.kubeConfig,
      client,
      namespace,
      Number(values['cap-seconds']) * 1000,
      Number(values['settle-seconds']) * 1000,
    );
    console.error(
      `round ${round}: ${run.name} recovered ${seconds(run.recoverySeconds)}, connections ${run.connectionsBefore} before, ${run.connectionsAfter} after`,
    );
    runs.push(run);
    await deleteWorkload(transport, client, namespace);
  }
}
if (runs.length > 0) console.log(recoveryTable(runs, Number(values['cap-seconds'])));

if (quietMs > 0) {
  const quiet = await quietPeriod(chosen, env.server, env.kubeConfig, audit, quietMs);
  console.log(quietTable(quiet, Number(values['quiet-minutes'])));
}

function seconds(s: number | undefined): string {
  return s === undefined ? 'not within the cap' : `${s.toFixed(1)} s`;
}

function recoveryTable(all: readonly SilencedRun[], capSeconds: number): string {
  const lines = [
    '| contender | recovery per round | median | connections before the silence | opened after it |',
    '| --------- | ------------------ | ------ | ------------------------------ | --------------- |',
  ];
  for (const c of chosen) {
    const mine = all.filter((r) => r.name === c.name);
    // A round past the cap counts as the cap: the median stays a lower bound then.
    const times = mine.map((r) => r.recoverySeconds ?? capSeconds);
    const capped = mine.some((r) => r.recoverySeconds === undefined) ? ' (≥, capped)' : '';
    lines.push(
      `| ${c.name} | ${mine.map((r) => seconds(r.recoverySeconds)).join(', ')} | ${median(times).toFixed(1)} s${capped} | ` +
        `${mine.map((r) => r.connectionsBefore).join(', ')} | ${mine.map((r) => r.connectionsAfter).join(', ')} |`,
    );
  }
  return lines.join('\n');
}

function quietTable(quiet: readonly QuietRun[], minutes: number): string {
  return [
    `| contender | connections opened in ${minutes} min | watch requests in ${minutes} min |`,
    '| --------- | ----------------------------------- | -------------------------------- |',
    ...quiet.map((q) => `| ${q.name} | ${q.connections} | ${q.watches} |`),
  ].join('\n');
}
