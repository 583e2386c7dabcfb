import { setTimeout as sleep } from 'node:timers/promises';
import { handOver, type HandOver, type HandOverContext } from './hand-over.ts';
import type { LeaseHistory } from './lease-watch.ts';
import type { LeaseTimings, Peer, ReplicaSpec, Standby } from './peers.ts';
import { Replica } from './replica.ts';

/** What every round shares. */
export interface Bench {
  readonly leases: LeaseHistory;
  /** The replicas' environment: KUBECONFIG of the test API server. */
  readonly env: NodeJS.ProcessEnv;
  readonly namespace: string;
  readonly objects: number;
  readonly timings: LeaseTimings;
  /** How long a standby runs once ready before the leader is signalled, plus a random part of a retry period. */
  readonly settleMs: number;
}

const START_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 10_000;

/**
 * One round of one peer with one kind of standby, on a Lease of its own: replicas A and B start
 * together; once one leads and the other is a ready standby, the leader is killed (SIGKILL); once
 * the standby leads, a third replica starts as the next standby and the new leader gets SIGTERM.
 */
export async function pairRound(
  bench: Bench,
  peer: Peer,
  standby: Standby,
  round: number,
): Promise<HandOver[]> {
  const lease = `handover-${peer.name}-${standby}-${round}`;
  const spec: ReplicaSpec = {
    namespace: bench.namespace,
    lease,
    objects: bench.objects,
    standby,
    timings: bench.timings,
  };
  const replicas: Replica[] = [];
  const start = (label: string): Replica => {
    const replica = new Replica(`${peer.name} ${label}`, peer.command, peer.args(spec), bench.env);
    replicas.push(replica);
    return replica;
  };
  const ctx: HandOverContext = { leases: bench.leases, lease, timings: bench.timings };
  const label = { peer: peer.name, standby, round };
  try {
    const [first, second] = await leaderAndStandby(start('a'), start('b'));
    await ready(bench, second, standby);
    const kill = await handOver(ctx, first, second, 'kill', label);
    if (kill.miss) return [kill, { ...label, scenario: 'term', miss: 'the kill hand-over missed' }];
    const third = start('c');
    await ready(bench, third, standby);
    return [kill, await handOver(ctx, second, third, 'term', label)];
  } finally {
    await Promise.all(replicas.map((r) => r.stop(STOP_GRACE_MS)));
  }
}

/** The replica that reconciled first (the leader) and the other one. */
async function leaderAndStandby(a: Replica, b: Replica): Promise<[Replica, Replica]> {
  await Promise.race([a, b].map((r) => r.waitFor('first-reconcile', START_TIMEOUT_MS)));
  const [at, bt] = [a.at('first-reconcile'), b.at('first-reconcile')];
  if (at === undefined && bt === undefined) throw failed('neither replica led', a, b);
  return at !== undefined && (bt === undefined || at <= bt) ? [a, b] : [b, a];
}

/** Waits until `replica` is a standby in its steady state: polling the lease, and warm if asked. */
async function ready(bench: Bench, replica: Replica, standby: Standby): Promise<void> {
  const moment = standby === 'warm' ? 'synced' : 'started';
  if ((await replica.waitFor(moment, START_TIMEOUT_MS)) === undefined) {
    throw failed(`the standby did not print ${moment}`, replica);
  }
  // Plus a random part of a retry period, so the signal falls at a random point of the standby's
  // retry cycle: a fixed delay after start-up would fix that phase, and with it the hand-over.
  await sleep(bench.settleMs + Math.random() * bench.timings.retryPeriod);
}

function failed(what: string, ...replicas: Replica[]): Error {
  const tails = replicas.map((r) => `--- ${r.name}:\n${r.stderrTail()}`).join('\n');
  return new Error(`${what}\n${tails}`);
}
