import { isConflict } from '../client/api-error.ts';
import { WakeablePause } from '../clock/wakeable-pause.ts';
import { sameRecord, type LeaderElectionRecord } from './leader-election-record.ts';
import {
  resolveLeaderElectionOptions,
  type LeaderElectionOptions,
  type ResolvedLeaderElectionOptions,
} from './leader-election-options.ts';
import { LeaderElectionLostError } from './leader-election-lost-error.ts';
import { leaderElectionMasterStatus } from './leader-metrics.ts';

/** Why leading ended: the caller's signal aborted (or the work returned), or the lease could not be renewed in time. */
export type LeadershipEnd = 'stopped' | 'lost';

/** How long past a lease's expiry on this clock an attempt is timed, so that it finds it expired. */
const EXPIRY_MARGIN_MS = 5;

/** How the work of `onStartedLeading` ended. */
type WorkEnd = { readonly failed: false } | { readonly failed: true; readonly error: unknown };

/**
 * Competes for a lease as client-go's leaderelection does: followers take the lease only once it
 * has not changed for its whole duration (measured on their own monotonic clock), the leader renews
 * it every retry period and stops leading when renewals keep failing past the renew deadline, and
 * writes use optimistic concurrency so two candidates never both win.
 *
 * The leader renews for as long as its work runs, not only until it is told to stop: a stopped
 * leader keeps the lease while its in-flight work drains, and releases it only after, so the next
 * leader never overlaps it (controller-runtime stops its leader-election runnables before it
 * cancels the election).
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
  /** When `#observed` last changed, on the monotonic clock. */
  #observedAt = 0;
  #reportedLeader = '';
  /** When the last successful acquire or renewal was sent, on the monotonic clock. */
  #renewedAt = 0;
  /** The wait between attempts to acquire, which {@link retryNow} ends. */
  readonly #acquirePause: WakeablePause;
  #tookOverFrom: LeaderElectionRecord | undefined;

  constructor(options: LeaderElectionOptions) {
    this.#options = resolveLeaderElectionOptions(options);
    this.#acquirePause = new WakeablePause(this.#options.clock);
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

  /**
   * The record this candidate took the lease from when it last acquired it: its holder had not
   * renewed it for a lease duration on this candidate's clock, so has stopped leading; its renew
   * time is that holder's last renewal, on the holder's clock. Undefined when the lease was free,
   * released, or new.
   */
  get tookOverFrom(): LeaderElectionRecord | undefined {
    return this.#tookOverFrom;
  }

  /**
   * Ends the wait before the next attempt to acquire the lease (or skips it, when an attempt is in
   * flight): for a caller that watches the lease and saw it released, so that this candidate takes
   * it at once rather than up to a retry period later.
   */
  retryNow(): void {
    this.#acquirePause.wake();
  }

  /**
   * Takes a renewal of the lease seen elsewhere (a watch of it) as if read: the holder's expiry is
   * timed from when it was seen, the moment it was written rather than at this candidate's next
   * read, up to a retry period later. Only a newer renewal by the holder last read counts: any
   * other change (a new holder, a release) waits for the next read, which decides alone whether
   * the lease is taken, so a late or stray event can only move an attempt, never make one win.
   */
  observeRenewal(record: LeaderElectionRecord): void {
    const observed = this.#observed;
    if (
      observed === undefined ||
      observed.holderIdentity === '' ||
      observed.holderIdentity === this.#options.identity ||
      record.holderIdentity !== observed.holderIdentity ||
      record.renewTime <= observed.renewTime
    )
      return;
    this.#observed = record;
    this.#observedAt = this.#options.clock.monotonic();
  }

  /** The identity of the last holder seen, or '' when none. */
  getLeader(): string {
    return this.#observed?.holderIdentity ?? '';
  }

  /**
   * Waits to acquire the lease, then runs `onStartedLeading` and renews the lease until that work
   * settles. `signal` aborting makes the work's signal abort; the lease is still renewed while the
   * work drains, then released (`releaseOnCancel`, unless `mayRelease` says the work may still run)
   * and 'stopped' resolved. When a renewal fails
   * past the deadline, the work's signal aborts with a LeaderElectionLostError and 'lost' resolves at
   * once, without waiting for the work. When the work rejects, the lease is released and `run`
   * rejects with its error. Resolves 'stopped' when `signal` aborts before the lease is acquired.
   */
  async run(signal: AbortSignal): Promise<LeadershipEnd> {
    if (!(await this.#acquire(signal))) return 'stopped';
    const { name, releaseOnCancel, logger } = this.#options;
    leaderElectionMasterStatus.set({ name }, 1);
    const lost = new AbortController();
    const settled = new AbortController();
    const work = this.#lead(AbortSignal.any([signal, lost.signal]), lost.signal).finally(() =>
      settled.abort(),
    );
    const renewed = await this.#renewUntil(settled.signal);
    if (!renewed) lost.abort(new LeaderElectionLostError(name));
    const end: LeadershipEnd = renewed ? 'stopped' : 'lost';
    const outcome = renewed ? await work : undefined;
    if (renewed && releaseOnCancel && (this.#options.callbacks.mayRelease?.() ?? true)) await this.#release();
    leaderElectionMasterStatus.set({ name }, 0);
    logger.info(end === 'lost' ? 'leader lease lost' : 'stopped leading', { lease: name });
    this.#notifyStopped();
    if (outcome?.failed) throw outcome.error;
    return end;
  }

  async #lead(signal: AbortSignal, lost: AbortSignal): Promise<WorkEnd> {
    try {
      await this.#options.callbacks.onStartedLeading(signal, lost);
      return { failed: false };
    } catch (error) {
      return { failed: true, error };
    }
  }

  #notifyStopped(): void {
    try {
      this.#options.callbacks.onStoppedLeading?.();
    } catch (err) {
      this.#options.logger.error('onStoppedLeading failed', { lease: this.#options.name, err });
    }
  }

  async #acquire(signal: AbortSignal): Promise<boolean> {
    const { clock, renewDeadline, logger, name } = this.#options;
    logger.info('attempting to acquire leader lease', { lease: name });
    while (!signal.aborted) {
      const sent = clock.monotonic();
      if (await this.#tryAcquireOrRenew(signal, renewDeadline)) {
        this.#renewedAt = sent;
        logger.info('successfully acquired lease', { lease: name, identity: this.identity });
        return true;
      }
      await this.#acquirePause.pause(this.#untilNextAttempt(), signal);
    }
    return false;
  }

  /**
   * A retry period, or less when the lease another holds expires sooner on this clock: it is tried
   * at its expiry, as a takeover's timing is what hands a dead leader's work on. Past the expiry (a
   * failed read), a retry period, so that an unreachable API server is not asked in a loop.
   */
  #untilNextAttempt(): number {
    const { clock, retryPeriod } = this.#options;
    const held = this.#observed;
    if (!held || !this.#heldByAnother()) return retryPeriod;
    const left = this.#observedAt + held.leaseDurationSeconds * 1000 - clock.monotonic();
    return left > 0 ? Math.min(retryPeriod, left + EXPIRY_MARGIN_MS) : retryPeriod;
  }

  /**
   * Renews every retry period until `done` aborts (true) or a renewal fails past the renew deadline
   * (false). Renewals are not tied to the caller's signal: a stopping leader keeps its lease.
   */
  async #renewUntil(done: AbortSignal): Promise<boolean> {
    for (;;) {
      await this.#options.clock.sleep(this.#options.retryPeriod, done);
      if (done.aborted) return true;
      if (!(await this.#renewWithinDeadline(done))) return done.aborted;
    }
  }

  /**
   * Retries the renewal every retry period until it succeeds or the renew deadline passes. The
   * deadline runs from when the last successful renewal was sent (the lease's renew time is no
   * earlier), a retry period plus the renew deadline: a late answer or a late timer on a busy
   * process must not keep it leading past the time a follower may take the lease. Never past a
   * lease duration: a follower that saw that renewal as it landed tries at its expiry, and options
   * whose renew deadline and retry period add up to more (client-go accepts them) would otherwise
   * keep this one leading after that.
   */
  async #renewWithinDeadline(done: AbortSignal): Promise<boolean> {
    const { clock, retryPeriod, renewDeadline, leaseDuration } = this.#options;
    const deadline = this.#renewedAt + Math.min(retryPeriod + renewDeadline, leaseDuration);
    for (;;) {
      const sent = clock.monotonic();
      if (sent >= deadline) return false;
      if (await this.#tryAcquireOrRenew(undefined, deadline - sent)) {
        this.#renewedAt = sent;
        return true;
      }
      // Held by another: no retry can succeed before that holder's lease expires, past this
      // deadline, and the other is running already. Stop now, not at the deadline as client-go.
      if (this.#heldByAnother()) return false;
      // Never past the deadline: a leader that cannot renew must stop leading before its lease
      // can expire in a follower's eyes (client-go bounds its poll by the deadline the same way).
      const left = deadline - clock.monotonic();
      if (left <= 0) return false;
      await clock.sleep(Math.min(retryPeriod, left), done);
      if (done.aborted || clock.monotonic() >= deadline) return false;
    }
  }

  #heldByAnother(): boolean {
    const holder = this.#observed?.holderIdentity ?? '';
    return holder !== '' && holder !== this.#options.identity;
  }

  /** One attempt; a failed request counts as a failed attempt. `timeout` bounds the requests. */
  async #tryAcquireOrRenew(signal: AbortSignal | undefined, timeout: number): Promise<boolean> {
    const bound = timeoutAfter(timeout);
    const attempt = signal ? AbortSignal.any([signal, bound]) : bound;
    try {
      return await this.#tryAcquireOrRenewOnce(attempt);
    } catch (err) {
      if (!signal?.aborted)
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
      this.#tookOverFrom = undefined;
      return true;
    }
    this.#observe(current.record);
    const held = current.record;
    const expiry = this.#observedAt + held.leaseDurationSeconds * 1000;
    const expired = expiry <= clock.monotonic();
    if (held.holderIdentity !== '' && held.holderIdentity !== identity && !expired) return false;
    const renewing = held.holderIdentity === identity;
    const record: LeaderElectionRecord = {
      holderIdentity: identity,
      leaseDurationSeconds,
      acquireTime: renewing ? held.acquireTime : now,
      renewTime: now,
      leaderTransitions: renewing ? held.leaderTransitions : held.leaderTransitions + 1,
    };
    this.#observe((await lock.update(record, current.resourceVersion, signal)).record);
    if (!renewing) this.#tookOverFrom = held.holderIdentity === '' ? undefined : held;
    return true;
  }

  /** Restarts the expiry timer whenever the record changed, and reports a new holder once. */
  #observe(record: LeaderElectionRecord): void {
    if (this.#observed === undefined || !sameRecord(this.#observed, record)) {
      this.#observed = record;
      this.#observedAt = this.#options.clock.monotonic();
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
   * duration, so a waiting candidate takes it on its next attempt instead of after the lease
   * expires. A conflict (a write raced ours) is read again and retried until the renew deadline.
   */
  async #release(): Promise<void> {
    const { clock, renewDeadline, retryPeriod, logger, name } = this.#options;
    const deadline = clock.monotonic() + renewDeadline;
    for (;;) {
      const signal = timeoutAfter(deadline - clock.monotonic());
      try {
        if (await this.#releaseOnce(signal)) logger.info('released leader lease', { lease: name });
        return;
      } catch (err) {
        if (!isConflict(err) || clock.monotonic() >= deadline) {
          logger.error('failed to release leader lease', { lease: name, err });
          return;
        }
        await clock.sleep(Math.min(retryPeriod, 200));
      }
    }
  }

  /** One release attempt; false when the lease is not ours (any more). */
  async #releaseOnce(signal: AbortSignal): Promise<boolean> {
    const { lock, identity, clock } = this.#options;
    const current = await lock.get(signal);
    if (current?.record.holderIdentity !== identity) return false;
    const now = clock.now();
    const released: LeaderElectionRecord = {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: now,
      renewTime: now,
      leaderTransitions: current.record.leaderTransitions,
    };
    this.#observe((await lock.update(released, current.resourceVersion, signal)).record);
    return true;
  }
}

/** AbortSignal.timeout for a time left, which may be fractional or already spent: at least 1 ms. */
function timeoutAfter(ms: number): AbortSignal {
  return AbortSignal.timeout(Math.max(1, Math.ceil(ms)));
}
