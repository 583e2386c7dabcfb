import { sameRecord, type LeaderElectionRecord } from './leader-election-record.ts';
import {
  resolveLeaderElectionOptions,
  type LeaderElectionOptions,
  type ResolvedLeaderElectionOptions,
} from './leader-election-options.ts';
import { leaderElectionMasterStatus } from './leader-metrics.ts';

/** Why leading ended: the caller's signal aborted, or the lease could not be renewed in time. */
export type LeadershipEnd = 'stopped' | 'lost';

/**
 * Competes for a lease as client-go's leaderelection does: followers take the lease only once it
 * has not changed for its whole duration (measured on their own clock), the leader renews it every
 * retry period and stops leading when renewals keep failing past the renew deadline, and writes use
 * optimistic concurrency so two candidates never both win.
 *
 * @example
 * ```ts
 * const elector = new LeaderElector({
 *   lock: leaseLock(kubeConfig, 'webapp-system', 'webapp-operator-leader'),
 *   callbacks: { onStartedLeading: (signal) => runControllers(signal) },
 * });
 * const end = await elector.run(shutdownSignal); // 'lost' means exit non-zero
 * ```
 */
export class LeaderElector {
  readonly #options: ResolvedLeaderElectionOptions;
  #observed: LeaderElectionRecord | undefined;
  #observedTime = 0;
  #reportedLeader = '';

  constructor(options: LeaderElectionOptions) {
    this.#options = resolveLeaderElectionOptions(options);
    leaderElectionMasterStatus.set({ name: this.#options.name }, 0);
  }

  /** This candidate's identity. */
  get identity(): string {
    return this.#options.identity;
  }

  /** True while the last record this candidate saw names it as the holder. */
  isLeader(): boolean {
    return this.#observed?.holderIdentity === this.#options.identity;
  }

  /** The identity of the last holder seen, or '' when none. */
  getLeader(): string {
    return this.#observed?.holderIdentity ?? '';
  }

  /**
   * Waits to acquire the lease, leads until `signal` aborts or a renewal fails past the deadline,
   * waits for `onStartedLeading`'s work to settle, then releases the lease (when stopped and
   * `releaseOnCancel`). Resolves 'stopped' when `signal` aborts before the lease is acquired.
   */
  async run(signal: AbortSignal): Promise<LeadershipEnd> {
    if (!(await this.#acquire(signal))) return 'stopped';
    const { name, callbacks, releaseOnCancel, logger } = this.#options;
    leaderElectionMasterStatus.set({ name }, 1);
    const leading = new AbortController();
    const work = this.#lead(leading.signal);
    const end = await this.#renew(signal);
    leading.abort(new Error(`leadership ${end}`));
    await work;
    if (end === 'stopped' && releaseOnCancel) await this.#release();
    leaderElectionMasterStatus.set({ name }, 0);
    logger.info(end === 'lost' ? 'leader lease lost' : 'stopped leading', { lease: name });
    callbacks.onStoppedLeading?.();
    return end;
  }

  async #lead(signal: AbortSignal): Promise<void> {
    try {
      await this.#options.callbacks.onStartedLeading(signal);
    } catch (err) {
      this.#options.logger.error('onStartedLeading failed', { lease: this.#options.name, err });
    }
  }

  async #acquire(signal: AbortSignal): Promise<boolean> {
    const { clock, retryPeriod, renewDeadline, logger, name } = this.#options;
    logger.info('attempting to acquire leader lease', { lease: name });
    while (!signal.aborted) {
      if (await this.#tryAcquireOrRenew(signal, renewDeadline)) {
        logger.info('successfully acquired lease', { lease: name, identity: this.identity });
        return true;
      }
      await clock.sleep(retryPeriod, signal);
    }
    return false;
  }

  async #renew(signal: AbortSignal): Promise<LeadershipEnd> {
    for (;;) {
      await this.#options.clock.sleep(this.#options.retryPeriod, signal);
      if (signal.aborted) return 'stopped';
      if (!(await this.#renewWithinDeadline(signal))) return signal.aborted ? 'stopped' : 'lost';
    }
  }

  /** Retries the renewal every retry period until it succeeds or the renew deadline passes. */
  async #renewWithinDeadline(signal: AbortSignal): Promise<boolean> {
    const { clock, retryPeriod, renewDeadline } = this.#options;
    const deadline = clock.now() + renewDeadline;
    for (;;) {
      if (await this.#tryAcquireOrRenew(signal, deadline - clock.now())) return true;
      await clock.sleep(retryPeriod, signal);
      if (signal.aborted || clock.now() >= deadline) return false;
    }
  }

  /** One attempt; a failed request counts as a failed attempt. `timeout` bounds the requests. */
  async #tryAcquireOrRenew(signal: AbortSignal, timeout: number): Promise<boolean> {
    const attempt = AbortSignal.any([signal, AbortSignal.timeout(Math.max(1, timeout))]);
    try {
      return await this.#tryAcquireOrRenewOnce(attempt);
    } catch (err) {
      if (!signal.aborted)
        this.#options.logger.info('failed to acquire or renew lease', { lease: this.#options.name, err });
      return false;
    }
  }

  async #tryAcquireOrRenewOnce(signal: AbortSignal): Promise<boolean> {
    const { lock, identity, clock, leaseDuration } = this.#options;
    const current = await lock.get(signal);
    const now = clock.now();
    const leaseDurationSeconds = Math.ceil(leaseDuration / 1000);
    if (!current) {
      const record = {
        holderIdentity: identity,
        leaseDurationSeconds,
        acquireTime: now,
        renewTime: now,
        leaderTransitions: 0,
      };
      this.#observe((await lock.create(record, signal)).record);
      return true;
    }
    this.#observe(current.record);
    const held = current.record;
    const expiry = this.#observedTime + held.leaseDurationSeconds * 1000;
    if (held.holderIdentity !== '' && held.holderIdentity !== identity && expiry > now) return false;
    const renewing = held.holderIdentity === identity;
    const record: LeaderElectionRecord = {
      holderIdentity: identity,
      leaseDurationSeconds,
      acquireTime: renewing ? held.acquireTime : now,
      renewTime: now,
      leaderTransitions: renewing ? held.leaderTransitions : held.leaderTransitions + 1,
    };
    this.#observe((await lock.update(record, current.resourceVersion, signal)).record);
    return true;
  }

  /** Restarts the expiry timer whenever the record changed, and reports a new holder once. */
  #observe(record: LeaderElectionRecord): void {
    if (this.#observed === undefined || !sameRecord(this.#observed, record)) {
      this.#observed = record;
      this.#observedTime = this.#options.clock.now();
    }
    const holder = record.holderIdentity;
    if (holder === '' || holder === this.#reportedLeader) return;
    this.#reportedLeader = holder;
    try {
      this.#options.callbacks.onNewLeader?.(holder);
    } catch (err) {
      this.#options.logger.error('onNewLeader failed', { lease: this.#options.name, err });
    }
  }

  /**
   * Hands the lease over at once, as client-go's ReleaseOnCancel: no holder and a one-second
   * duration, so a waiting candidate takes it on its next attempt instead of after the lease expires.
   */
  async #release(): Promise<void> {
    const { lock, identity, clock, renewDeadline, logger, name } = this.#options;
    const signal = AbortSignal.timeout(renewDeadline);
    try {
      const current = await lock.get(signal);
      if (current?.record.holderIdentity !== identity) return;
      const now = clock.now();
      const released: LeaderElectionRecord = {
        holderIdentity: '',
        leaseDurationSeconds: 1,
        acquireTime: now,
        renewTime: now,
        leaderTransitions: current.record.leaderTransitions,
      };
      this.#observe((await lock.update(released, current.resourceVersion, signal)).record);
      logger.info('released leader lease', { lease: name });
    } catch (err) {
      logger.error('failed to release leader lease', { lease: name, err });
    }
  }
}
