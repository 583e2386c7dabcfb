import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { KubeConfig } from '@kubernetes/client-node';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { LeaderElector, type LeadershipEnd } from '../../../src/runtime/leader/leader-elector.ts';
import { LeaderElectionLostError } from '../../../src/runtime/leader/leader-election-lost-error.ts';
import { leaseLock, type LeaseLock } from '../../../src/runtime/leader/lease-lock.ts';
import { metricsRegistry } from '../../../src/runtime/metrics/registry.ts';
import { suiteEnvironment } from '../../support/suite-environment.ts';

const LEASE = 15_000;
const RETRY = 2_000;
const HALF_RETRY = RETRY / 2;
/** The fake clock's step while a takeover is awaited: how close to the expiry it is timed. */
const STEP = 100;

const api = suiteEnvironment();

/** One entry per start or end of leading, in the order they happened, stamped with the fake clock. */
interface Fence {
  readonly who: string;
  readonly event: 'start' | 'end';
  readonly at: number;
}

/** Candidates on one fake clock. Time moves only in `step`, and only once every candidate is idle. */
class Election {
  readonly clock = new FakeClock(0);
  readonly fences: Fence[] = [];
  /** `who saw whom` for every onNewLeader call, in order. */
  readonly newLeaders: string[] = [];
  /** Each candidate's elector, by its identity. */
  readonly electors = new Map<string, LeaderElector>();
  readonly #kubeConfig: KubeConfig;
  readonly #lease: string;
  readonly #runs = new Map<string, { stop: AbortController; done: Promise<LeadershipEnd> }>();
  /** Candidates whose `run` has not returned yet. */
  readonly #running = new Set<string>();
  /** Candidates draining their work after being stopped: one more sleeper each. */
  readonly #draining = new Set<string>();

  constructor(kubeConfig: KubeConfig, lease: string) {
    this.#kubeConfig = kubeConfig;
    this.#lease = lease;
  }

  /**
   * Starts a candidate. Its work ends `drainMs` after it is told to stop (on the fake clock), or
   * at once when the lease is lost.
   */
  async start(
    who: string,
    releaseOnCancel: boolean,
    options: { drainMs?: number; lock?: LeaseLock; renewDeadline?: number } = {},
  ): Promise<void> {
    const elector = new LeaderElector({
      lock: options.lock ?? leaseLock(this.#kubeConfig, 'default', this.#lease),
      ...(options.renewDeadline === undefined ? {} : { renewDeadline: options.renewDeadline }),
      identity: who,
      name: this.#lease,
      clock: this.clock,
      releaseOnCancel,
      callbacks: {
        onStartedLeading: (signal) => this.#lead(who, signal, options.drainMs ?? 0),
        onNewLeader: (leader) => this.newLeaders.push(`${who} saw ${leader}`),
      },
    });
    this.electors.set(who, elector);
    const stop = new AbortController();
    this.#running.add(who);
    const done = elector.run(stop.signal).finally(() => this.#running.delete(who));
    this.#runs.set(who, { stop, done });
    await this.settle();
  }

  /** Stops a candidate and waits until it has stopped leading (and released, when it does). */
  async stop(who: string): Promise<LeadershipEnd> {
    return this.signalStop(who);
  }

  /** Tells a candidate to stop; the returned promise settles when its `run` does. */
  signalStop(who: string): Promise<LeadershipEnd> {
    const run = this.#runs.get(who);
    assert.ok(run);
    this.#runs.delete(who);
    run.stop.abort();
    return run.done;
  }

  async step(ms: number): Promise<void> {
    this.clock.advance(ms);
    await this.settle();
  }

  /** Leaders now: those with a start and no end yet. */
  leaders(): string[] {
    const open = new Set<string>();
    for (const fence of this.fences) {
      if (fence.event === 'start') open.add(fence.who);
      else open.delete(fence.who);
    }
    return [...open];
  }

  /** The fences never show a start while another candidate's leading is open. */
  assertNoOverlap(): void {
    let open: string | undefined;
    for (const fence of this.fences) {
      if (fence.event === 'start') {
        assert.equal(open, undefined, `${fence.who} started leading at ${fence.at} while ${open} led`);
        open = fence.who;
      } else {
        assert.equal(open, fence.who);
        open = undefined;
      }
    }
  }

  /** Every running candidate is idle when each one waits on the clock (none is mid-request). */
  async settle(): Promise<void> {
    while (this.clock.sleepers !== this.#running.size + this.#draining.size) await delay(5);
  }

  async #lead(who: string, signal: AbortSignal, drainMs: number): Promise<void> {
    this.fences.push({ who, event: 'start', at: this.clock.now() });
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    if (drainMs > 0 && !(signal.reason instanceof LeaderElectionLostError)) {
      this.#draining.add(who);
      await this.clock.sleep(drainMs);
      this.#draining.delete(who);
    }
    this.fences.push({ who, event: 'end', at: this.clock.now() });
  }
}

test('of two candidates exactly one leads, and it keeps leading while it renews', async () => {
  const election = new Election(api.env.kubeConfig, 'two-candidates');
  await election.start('a', true);
  await election.start('b', true);
  assert.deepEqual(election.leaders(), ['a']);
  for (let i = 0; i < 3 * (LEASE / RETRY); i++) await election.step(RETRY);
  assert.deepEqual(election.leaders(), ['a']);
  await election.stop('a');
  await election.stop('b');
  election.assertNoOverlap();
});

test('two candidates racing to create the lease: exactly one wins', async () => {
  const election = new Election(api.env.kubeConfig, 'race');
  await Promise.all([election.start('a', true), election.start('b', true)]);
  assert.equal(election.leaders().length, 1);
  for (let i = 0; i < 5; i++) await election.step(RETRY);
  assert.equal(election.leaders().length, 1);
  await election.stop('a');
  await election.stop('b');
  election.assertNoOverlap();
});

test('when the leader stops without releasing, the other leads within lease duration + retry, never before', async () => {
  const election = new Election(api.env.kubeConfig, 'leader-stops');
  await election.start('a', false);
  // b polls half a retry period after a, so it always reads a's latest renewal.
  await election.step(HALF_RETRY);
  await election.start('b', false);
  for (let i = 0; i < 4; i++) await election.step(HALF_RETRY);
  assert.deepEqual(election.leaders(), ['a']);
  assert.equal(await election.stop('a'), 'stopped');
  const stoppedAt = election.clock.now();
  while (election.leaders().length === 0) await election.step(HALF_RETRY);
  const tookOver = election.clock.now() - stoppedAt;
  assert.deepEqual(election.leaders(), ['b']);
  assert.ok(tookOver >= LEASE, `b took over ${tookOver} ms after a stopped, before the lease expired`);
  assert.ok(tookOver <= LEASE + RETRY, `b took over ${tookOver} ms after a stopped`);
  assert.deepEqual(election.newLeaders, ['a saw a', 'b saw a', 'b saw b']);
  await election.stop('b');
  election.assertNoOverlap();
});

/** Steps until a candidate leads; asserts that `who` took the lease within a step of `expiry`, alone. */
async function assertTakenOverAt(election: Election, who: string, expiry: number): Promise<void> {
  while (election.leaders().length === 0) await election.step(STEP);
  assert.deepEqual(election.leaders(), [who]);
  const at = election.clock.monotonic();
  assert.ok(
    at >= expiry && at <= expiry + STEP,
    `${who} took over at ${at} ms; the lease expired at ${expiry} ms`,
  );
  await election.stop(who);
  election.assertNoOverlap();
}

test("a candidate tries again at the lease's expiry as it read it, not at its next retry", async () => {
  const election = new Election(api.env.kubeConfig, 'timed-at-expiry');
  await election.start('a', false);
  await election.step(HALF_RETRY);
  await election.start('b', false);
  await election.step(HALF_RETRY);
  await election.step(HALF_RETRY);
  // a renewed at 2 s, and b read that renewal at 3 s: on b's clock the lease expires at 18 s.
  assert.equal(await election.stop('a'), 'stopped');
  const expiry = RETRY + HALF_RETRY + LEASE;
  await assertTakenOverAt(election, 'b', expiry);
});

test('a renewal seen as it is written times the takeover from that renewal', async () => {
  const election = new Election(api.env.kubeConfig, 'renewal-seen');
  const lock = leaseLock(api.env.kubeConfig, 'default', 'renewal-seen');
  /** What a watch of the Lease hands b: each record as soon as it is written. */
  const watched = async (): Promise<void> => {
    const current = await lock.get(AbortSignal.timeout(10_000));
    if (current) election.electors.get('b')?.observeRenewal(current.record);
  };
  await election.start('a', false);
  await election.step(HALF_RETRY);
  await election.start('b', false);
  await election.step(HALF_RETRY);
  await watched();
  await election.step(HALF_RETRY);
  // a's last renewal was at 2 s, seen then; b's own read of it came at 3 s.
  assert.equal(await election.stop('a'), 'stopped');
  const expiry = RETRY + LEASE;
  await assertTakenOverAt(election, 'b', expiry);
});

test('a leader cut off from the API server stops before a follower may take over, whatever its renew deadline', async () => {
  const election = new Election(api.env.kubeConfig, 'cut-off');
  const real = leaseLock(api.env.kubeConfig, 'default', 'cut-off');
  let cut = false;
  const failWhenCut = <T>(call: () => Promise<T>): Promise<T> =>
    cut ? Promise.reject(new Error('connect ECONNREFUSED')) : call();
  const cuttable: LeaseLock = {
    description: real.description,
    get: (signal) => failWhenCut(() => real.get(signal)),
    create: (record, signal) => failWhenCut(() => real.create(record, signal)),
    update: (record, resourceVersion, signal) =>
      failWhenCut(() => real.update(record, resourceVersion, signal)),
  };
  // A renew deadline and a retry period that add up to more than the lease: client-go accepts it.
  const renewDeadline = LEASE - 1000;
  await election.start('a', false, { lock: cuttable, renewDeadline });
  await election.step(10);
  await election.start('b', false, { renewDeadline });
  // a renews at 2 s, and b reads that renewal 10 ms later; then a can no longer reach the server.
  await election.step(RETRY - 10);
  await election.step(10);
  cut = true;
  while (election.clock.monotonic() < RETRY + LEASE + RETRY) await election.step(STEP);
  assert.deepEqual(election.leaders(), ['b']);
  election.assertNoOverlap();
  await election.stop('b');
  await election.stop('a');
});

test('a leader that releases on shutdown hands over at the next attempt', async () => {
  const election = new Election(api.env.kubeConfig, 'release-on-cancel');
  await election.start('a', true);
  await election.step(HALF_RETRY);
  await election.start('b', true);
  await election.step(HALF_RETRY);
  assert.equal(await election.stop('a'), 'stopped');
  const stoppedAt = election.clock.now();
  await election.step(HALF_RETRY);
  assert.deepEqual(election.leaders(), ['b']);
  assert.ok(election.clock.now() - stoppedAt <= RETRY);
  await election.stop('b');
  election.assertNoOverlap();
});

test('a leader whose lease is taken over stops leading and reports it lost', async () => {
  const election = new Election(api.env.kubeConfig, 'stolen');
  await election.start('a', true);
  const lock = leaseLock(api.env.kubeConfig, 'default', 'stolen');
  const current = await lock.get(AbortSignal.timeout(10_000));
  assert.ok(current);
  await lock.update(
    { ...current.record, holderIdentity: 'usurper' },
    current.resourceVersion,
    AbortSignal.timeout(10_000),
  );
  while (election.leaders().length > 0) await election.step(RETRY);
  assert.equal(await election.stop('a'), 'lost');
  election.assertNoOverlap();
});

test('a leader that reads its lease held by another stops at that renewal, not at the renew deadline', async () => {
  const election = new Election(api.env.kubeConfig, 'held-by-another');
  await election.start('a', true);
  const lock = leaseLock(api.env.kubeConfig, 'default', 'held-by-another');
  const current = await lock.get(AbortSignal.timeout(10_000));
  assert.ok(current);
  await lock.update(
    { ...current.record, holderIdentity: 'usurper' },
    current.resourceVersion,
    AbortSignal.timeout(10_000),
  );
  // The other runs already: a's renewals cannot succeed before the other's lease expires.
  await election.step(RETRY);
  assert.deepEqual(election.leaders(), []);
  assert.equal(await election.stop('a'), 'lost');
  election.assertNoOverlap();
});

test('the leader_election_master_status gauge is 1 while leading and 0 after', async () => {
  const election = new Election(api.env.kubeConfig, 'metric');
  await election.start('a', true);
  assert.match(await metricsRegistry.metrics(), /leader_election_master_status\{name="metric"\} 1/);
  await election.stop('a');
  assert.match(await metricsRegistry.metrics(), /leader_election_master_status\{name="metric"\} 0/);
});

test('a stopped leader keeps renewing while its work drains, longer than the lease; the other leads only after', async () => {
  const election = new Election(api.env.kubeConfig, 'drain');
  await election.start('a', true, { drainMs: 3 * LEASE });
  await election.step(HALF_RETRY);
  await election.start('b', true);
  const stopped = election.signalStop('a');
  await election.settle();
  for (let i = 0; i < (3 * LEASE) / RETRY - 1; i++) {
    await election.step(RETRY);
    assert.deepEqual(
      election.leaders(),
      ['a'],
      `b led while a drained, ${(i + 1) * RETRY} ms after the stop`,
    );
  }
  await election.step(RETRY);
  assert.equal(await stopped, 'stopped');
  while (election.leaders().length === 0) await election.step(HALF_RETRY);
  assert.deepEqual(election.leaders(), ['b']);
  await election.stop('b');
  election.assertNoOverlap();
});

test('wall-clock steps neither expire a held lease early nor keep an abandoned one', async () => {
  const election = new Election(api.env.kubeConfig, 'clock-steps');
  await election.start('a', false);
  await election.step(HALF_RETRY);
  await election.start('b', false);
  // An hour forward, then two back: the lease's expiry is measured on the monotonic clock.
  // Half-retry steps keep b polling between a's renewals, so it always reads the latest one.
  election.clock.stepWall(3_600_000);
  for (let i = 0; i < 2 * (LEASE / HALF_RETRY); i++) await election.step(HALF_RETRY);
  election.clock.stepWall(-7_200_000);
  for (let i = 0; i < 2 * (LEASE / HALF_RETRY); i++) await election.step(HALF_RETRY);
  assert.deepEqual(election.leaders(), ['a']);
  assert.equal(await election.stop('a'), 'stopped');
  election.clock.stepWall(-3_600_000);
  const stoppedAt = election.clock.monotonic();
  while (election.leaders().length === 0) await election.step(HALF_RETRY);
  const tookOver = election.clock.monotonic() - stoppedAt;
  assert.deepEqual(election.leaders(), ['b']);
  assert.ok(tookOver >= LEASE && tookOver <= LEASE + RETRY, `b took over ${tookOver} ms after a stopped`);
  await election.stop('b');
  election.assertNoOverlap();
});

test('a release that conflicts with another write is read again and retried', async () => {
  const election = new Election(api.env.kubeConfig, 'release-conflict');
  const real = leaseLock(api.env.kubeConfig, 'default', 'release-conflict');
  let conflicts = 0;
  const racing: LeaseLock = {
    description: real.description,
    get: (signal) => real.get(signal),
    create: (record, signal) => real.create(record, signal),
    update: async (record, resourceVersion, signal) => {
      if (record.holderIdentity === '' && conflicts === 0) {
        conflicts += 1;
        // Someone else writes the Lease between the release's read and its write: a real 409.
        const current = await real.get(signal);
        assert.ok(current);
        await real.update(
          { ...current.record, renewTime: current.record.renewTime + 1 },
          current.resourceVersion,
          signal,
        );
      }
      return real.update(record, resourceVersion, signal);
    },
  };
  await election.start('a', true, { lock: racing });
  let end: LeadershipEnd | undefined;
  const stopped = election.signalStop('a').then((e) => (end = e));
  // The retry after the conflict waits on the fake clock.
  while (end === undefined) await election.step(HALF_RETRY);
  assert.equal(await stopped, 'stopped');
  assert.equal(conflicts, 1);
  const lease = await real.get(AbortSignal.timeout(10_000));
  assert.equal(lease?.record.holderIdentity, '', 'the lease was released after the conflict');
});

test('work that rejects ends leadership: the lease is released and run rejects with its error', async () => {
  const clock = new FakeClock(0);
  const elector = new LeaderElector({
    lock: leaseLock(api.env.kubeConfig, 'default', 'failing-work'),
    identity: 'a',
    clock,
    callbacks: {
      onStartedLeading: async () => {
        throw new Error('a controller failed');
      },
    },
  });
  const run = elector.run(new AbortController().signal);
  await assert.rejects(run, /a controller failed/);
  const lease = await leaseLock(api.env.kubeConfig, 'default', 'failing-work').get(
    AbortSignal.timeout(10_000),
  );
  assert.equal(lease?.record.holderIdentity, '');
});

test('a leader that cannot renew stops leading at the renew deadline, not a retry period later', async () => {
  const clock = new FakeClock(0);
  const real = leaseLock(api.env.kubeConfig, 'default', 'renew-deadline');
  let failing = false;
  const unreachable = (): Promise<never> => Promise.reject(new Error('the API server is unreachable'));
  const lock: LeaseLock = {
    description: real.description,
    get: (signal) => (failing ? unreachable() : real.get(signal)),
    create: (record, signal) => (failing ? unreachable() : real.create(record, signal)),
    update: (record, version, signal) => (failing ? unreachable() : real.update(record, version, signal)),
  };
  const leading = leadUntilLost(lock, clock);
  const run = leading.run;
  while (clock.sleepers === 0) await delay(5);
  failing = true;
  const failingFrom = clock.monotonic();
  while (leading.lostAt() === undefined) {
    clock.advance(500);
    await delay(5);
  }
  assert.equal(await run, 'lost');
  // The first renewal after the failure is due a retry period later; the deadline runs from there.
  assert.ok(
    (leading.lostAt() ?? Infinity) - failingFrom <= 2_000 + 3_000,
    `lost ${(leading.lostAt() ?? Infinity) - failingFrom} ms after renewals began to fail`,
  );
});

test('a leader gives up a retry period and the renew deadline after its last renewal was sent, however late its answer came', async () => {
  const clock = new FakeClock(0);
  const real = leaseLock(api.env.kubeConfig, 'default', 'late-answer');
  let failing = false;
  let lastGetAt = 0;
  let renewalSentAt: number | undefined;
  const unreachable = (): Promise<never> => Promise.reject(new Error('the API server is unreachable'));
  const lock: LeaseLock = {
    description: real.description,
    get: (signal) => {
      lastGetAt = clock.monotonic();
      return failing ? unreachable() : real.get(signal);
    },
    create: (record, signal) => (failing ? unreachable() : real.create(record, signal)),
    update: async (record, version, signal) => {
      if (failing) return unreachable();
      const updated = await real.update(record, version, signal);
      if (renewalSentAt === undefined) {
        // The first renewal lands, but its answer comes 2.5 s late (a busy process), and then the
        // API server is gone.
        renewalSentAt = lastGetAt;
        await clock.sleep(2_500);
        failing = true;
      }
      return updated;
    },
  };
  const leading = leadUntilLost(lock, clock);
  const run = leading.run;
  while (leading.lostAt() === undefined) {
    while (clock.sleepers === 0) await delay(5);
    clock.advance(500);
    await delay(5);
  }
  assert.equal(await run, 'lost');
  assert.ok(renewalSentAt !== undefined);
  // Its renew time is no earlier than the send: a follower may take the lease a lease duration
  // after that, and the shard timings leave only one retry period of margin past this bound.
  assert.ok(
    (leading.lostAt() ?? Infinity) - renewalSentAt <= 2_000 + 3_000,
    `lost ${(leading.lostAt() ?? Infinity) - renewalSentAt} ms after the last renewal was sent`,
  );
});

/**
 * Candidate 'a' on `lock` (lease 15 s, renew deadline 3 s, retry 2 s), whose work ends when its
 * signal aborts; `lostAt` is when that happened on `clock`.
 */
function leadUntilLost(
  lock: LeaseLock,
  clock: FakeClock,
): { run: Promise<LeadershipEnd>; lostAt: () => number | undefined } {
  let lostAt: number | undefined;
  const elector = new LeaderElector({
    lock,
    identity: 'a',
    clock,
    leaseDuration: 15_000,
    renewDeadline: 3_000,
    retryPeriod: 2_000,
    callbacks: {
      onStartedLeading: (signal) =>
        new Promise<void>((resolve) =>
          signal.addEventListener(
            'abort',
            () => {
              lostAt = clock.monotonic();
              resolve();
            },
            { once: true },
          ),
        ),
    },
  });
  return { run: elector.run(new AbortController().signal), lostAt: () => lostAt };
}
