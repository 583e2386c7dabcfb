import { setTimeout as sleep } from 'node:timers/promises';
import type { LeaseHistory, LeaseRecord } from './lease-watch.ts';
import type { LeaseTimings, Standby } from './peers.ts';
import type { Replica } from './replica.ts';

/** kill: SIGKILL of the leader (the lease must expire); term: SIGTERM (the leader releases it). */
export type Scenario = 'kill' | 'term';

/** What one hand-over took, in milliseconds from the signal; a miss has only `miss`. */
export interface HandOver {
  readonly peer: string;
  readonly standby: Standby;
  readonly scenario: Scenario;
  readonly round: number;
  /** Signal → the new leader's first reconcile. */
  readonly total?: number;
  /** Signal → the release record the old leader wrote (term only). */
  readonly released?: number;
  /** Signal → the `acquireTime` the new leader wrote. */
  readonly acquired?: number;
  /** The new leader's `acquireTime` → its first reconcile. */
  readonly afterAcquire?: number;
  /** The new leader's `acquireTime` → its cache holding every object (negative: warm before it led). */
  readonly synced?: number;
  /** How the old leader exited (term: it should be 0). */
  readonly oldLeaderExit?: string;
  /** Why there are no figures. */
  readonly miss?: string;
}

/** Where a hand-over happens and how long to wait for it. */
export interface HandOverContext {
  readonly leases: LeaseHistory;
  readonly lease: string;
  readonly timings: LeaseTimings;
}

const LEASE_EVENT_GRACE_MS = 5_000;
const EXIT_GRACE_MS = 40_000;

/**
 * Signals `leader` and times the hand-over to `standby`, from the outside: the signal's time, the
 * Lease's records as a watch delivered them, and the moments the standby printed.
 */
export async function handOver(
  ctx: HandOverContext,
  leader: Replica,
  standby: Replica,
  scenario: Scenario,
  label: Pick<HandOver, 'peer' | 'standby' | 'round'>,
): Promise<HandOver> {
  const base = { ...label, scenario };
  if (standby.at('first-reconcile') !== undefined)
    return { ...base, miss: 'the standby reconciled before the signal' };
  // A copy: the history grows as the watch delivers.
  const before = [...ctx.leases.records(ctx.lease)];
  const oldHolder = before.at(-1)?.holder;
  if (!oldHolder) return { ...base, miss: 'no holder on the lease before the signal' };
  const signalAt = leader.signal(scenario === 'kill' ? 'SIGKILL' : 'SIGTERM');
  const { leaseDuration, retryPeriod } = ctx.timings;
  const firstAt = await standby.waitFor('first-reconcile', 2 * leaseDuration + 10 * retryPeriod);
  const exit = await Promise.race([leader.exited, sleep(EXIT_GRACE_MS, undefined, { ref: false })]);
  const oldLeaderExit = exit ? `${exit.signal ?? exit.code}` : 'still running';
  if (firstAt === undefined)
    return { ...base, oldLeaderExit, miss: `no first reconcile:\n${standby.stderrTail()}` };
  const next = (match: (r: LeaseRecord) => boolean): Promise<LeaseRecord | undefined> =>
    ctx.leases.next(ctx.lease, before.length, match, LEASE_EVENT_GRACE_MS);
  const acquired = await next((r) => r.holder !== '' && r.holder !== oldHolder);
  const released = scenario === 'term' ? await next((r) => r.holder === '') : undefined;
  const syncedAt = standby.at('synced');
  return {
    ...base,
    total: firstAt - signalAt,
    ...(released ? { released: released.acquiredAt - signalAt } : {}),
    ...(acquired
      ? {
          acquired: acquired.acquiredAt - signalAt,
          afterAcquire: firstAt - acquired.acquiredAt,
          ...(syncedAt === undefined ? {} : { synced: syncedAt - acquired.acquiredAt }),
        }
      : {}),
    oldLeaderExit,
  };
}
