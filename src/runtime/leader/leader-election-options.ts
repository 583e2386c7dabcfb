import { systemClock, type Clock } from '../clock/clock.ts';
import { silentLogger, type Logger } from '../log/logger.ts';
import { defaultLeaderIdentity } from './identity.ts';
import type { LeaseLock } from './lease-lock.ts';

/** What happens as leadership comes and goes. */
export interface LeaderCallbacks {
  /**
   * Called once this candidate leads. `signal` aborts when the elector is stopped: the lease is
   * still renewed until the returned promise settles and released only after, so the next leader
   * never overlaps this one's work. It also aborts, with a LeaderElectionLostError as its reason, when
   * the lease is lost: then nothing waits for the work, which must stop at once. `lost` aborts
   * only then, also when `signal` had already aborted for a stop and the work is draining. A rejection
   * ends leadership: the lease is released (as `mayRelease` allows) and `run` rejects with it.
   */
  onStartedLeading(signal: AbortSignal, lost: AbortSignal): void | Promise<void>;
  /**
   * Asked once the work settled, before the lease is released: false when the work may still run
   * (its drain outlived its timeout), and the lease is then left to expire instead, as
   * controller-runtime does when ReleaseOnCancel cannot be honoured: released, the next leader
   * would overlap it. Default: true.
   */
  mayRelease?(): boolean;
  /** Called after leadership ended (lost, or stopped and released). */
  onStoppedLeading?(): void;
  /** Called when a candidate (this one or another) is first seen holding the lease. */
  onNewLeader?(identity: string): void;
}

/** How a LeaderElector competes for its lease. Durations are in milliseconds. */
export interface LeaderElectionOptions {
  /** The lock to compete for, e.g. `leaseLock(kubeConfig, namespace, name)`. Required. */
  lock: LeaseLock;
  /** What to run while leading, and what to tell when leadership changes. Required. */
  callbacks: LeaderCallbacks;
  /** This candidate's identity. Default: host name + '_' + a random UUID. */
  identity?: string;
  /** How long followers wait, after last seeing the lease change, before taking it. Default: 15 s. */
  leaseDuration?: number;
  /** How long the leader keeps retrying a failed renewal before it gives up leading. Default: 10 s. */
  renewDeadline?: number;
  /** The interval between attempts to acquire or renew. Default: 2 s. */
  retryPeriod?: number;
  /** Release the lease when stopped, so another candidate takes over at once. Default: true. */
  releaseOnCancel?: boolean;
  /** Label of the leader_election_master_status metric. Default: the lock's `namespace/name`. */
  name?: string;
  /** Default: systemClock. */
  clock?: Clock;
  /** Default: silentLogger. */
  logger?: Logger;
}

export type ResolvedLeaderElectionOptions = Required<LeaderElectionOptions>;

/** Applies the defaults and checks the durations as client-go's NewLeaderElector does. */
export function resolveLeaderElectionOptions(options: LeaderElectionOptions): ResolvedLeaderElectionOptions {
  const resolved: ResolvedLeaderElectionOptions = {
    lock: options.lock,
    callbacks: options.callbacks,
    identity: options.identity ?? defaultLeaderIdentity(),
    leaseDuration: options.leaseDuration ?? 15_000,
    renewDeadline: options.renewDeadline ?? 10_000,
    retryPeriod: options.retryPeriod ?? 2_000,
    releaseOnCancel: options.releaseOnCancel ?? true,
    name: options.name ?? options.lock.description,
    clock: options.clock ?? systemClock,
    logger: options.logger ?? silentLogger,
  };
  if (resolved.leaseDuration <= resolved.renewDeadline) {
    throw new RangeError('leaseDuration must be greater than renewDeadline');
  }
  if (resolved.renewDeadline <= resolved.retryPeriod * 1.2) {
    throw new RangeError('renewDeadline must be greater than retryPeriod*1.2');
  }
  if (resolved.retryPeriod < 1) throw new RangeError('retryPeriod must be positive');
  if (resolved.identity === '') throw new RangeError('identity must not be empty');
  return resolved;
}
