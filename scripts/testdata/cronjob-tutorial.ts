import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { appendTo, userEdit } from './user-edit.ts';
import type { SampleContext } from './sample-projects.ts';

/*
 * The book's CronJob tutorial (docs/tutorial/cronjob.md), made as its reader makes it: the commands
 * the page prints, then the code the page shows, put where the page says. The page includes these
 * files from docs/projects/cronjob-tutorial by region (`// #region name`), so what the reader copies
 * is what this script wrote and CI tested.
 */

/** The example field `create api` writes, which the reader replaces with the kind's own. */
export const EXAMPLE_FIELD = `/** CronJobSpec is the desired state of a CronJob. */
export interface CronJobSpec {
  // +optional
  /** foo is an example field of CronJob: edit cronjob.types.ts to replace it with your own. */
  foo?: string;
}`;

export const TYPES_IMPORT = "import { defineKind, type Condition, type int64, type ObjectMeta } from '../../runtime/index.ts';";

export const TUTORIAL_TYPES_IMPORT = `import type { V1JobTemplateSpec, V1ObjectReference } from '@kubernetes/client-node';
import {
  defineKind,
  type Condition,
  type int32,
  type int64,
  type Json,
  type ObjectMeta,
  type Time,
} from '../../runtime/index.ts';`;

/** CronJob's spec, as Kubebuilder's tutorial writes it, markers spelled as there. */
export const SPEC = `// #region spec

/** CronJobSpec is the desired state of a CronJob. */
export interface CronJobSpec {
  // +kubebuilder:validation:MinLength:=0
  // +required
  /** schedule in Cron format, see https://en.wikipedia.org/wiki/Cron. */
  schedule: string;

  // +kubebuilder:validation:Minimum:=0
  // +optional
  /**
   * startingDeadlineSeconds is the deadline in seconds for starting a Job that missed its
   * scheduled time for any reason. Missed runs past the deadline count as failed ones.
   */
  startingDeadlineSeconds?: int64;

  // +kubebuilder:default:=Allow
  // +optional
  /** concurrencyPolicy says how to treat a run that is due while the previous one still runs. */
  concurrencyPolicy?: ConcurrencyPolicy;

  // +optional
  /** suspend tells the controller to start no more runs; runs already started go on. */
  suspend?: boolean;

  // +required
  /**
   * jobTemplate is the Job to create for each run. \`Json<>\` because the API server sends the
   * template's timestamps as strings, where client-node's type says Date.
   */
  jobTemplate: Json<V1JobTemplateSpec>;

  // +kubebuilder:validation:Minimum:=0
  // +optional
  /** successfulJobsHistoryLimit is how many successful finished Jobs to keep. */
  successfulJobsHistoryLimit?: int32;

  // +kubebuilder:validation:Minimum:=0
  // +optional
  /** failedJobsHistoryLimit is how many failed finished Jobs to keep. */
  failedJobsHistoryLimit?: int32;
}
// #endregion spec

// #region concurrency-policy

/**
 * ConcurrencyPolicy says what happens to a run that is due while the previous one still runs:
 * Allow runs them side by side, Forbid skips the new run, Replace stops the running one first.
 */
// +kubebuilder:validation:Enum=Allow;Forbid;Replace
export type ConcurrencyPolicy = 'Allow' | 'Forbid' | 'Replace';
// #endregion concurrency-policy`;

export const STATUS_END = '  observedGeneration?: int64;\n}';

export const TUTORIAL_STATUS_END = `  observedGeneration?: int64;

  // #region status

  // +listType=atomic
  // +optional
  /** active are the Jobs of this CronJob that are still running. */
  active?: V1ObjectReference[];

  // +optional
  /** lastScheduleTime is when a Job was last started on schedule. */
  lastScheduleTime?: Time;
  // #endregion status
}`;

/** The sample object: a Job a minute that prints the date, keeping one finished Job of each outcome. */
export const SAMPLE_SPEC = `  schedule: '*/1 * * * *'
  startingDeadlineSeconds: 60
  concurrencyPolicy: Allow
  successfulJobsHistoryLimit: 1
  failedJobsHistoryLimit: 1
  jobTemplate:
    spec:
      template:
        spec:
          containers:
            - name: hello
              image: busybox:1.37
              args: [/bin/sh, -c, 'date; echo Hello from the CronJob tutorial']
          restartPolicy: OnFailure`;

/** The scaffold's whole `apply`: the tutorial's replaces it. */
const SCAFFOLD_APPLY = `  /** Makes the cluster match the CronJob's spec, then says so in its status. */
  async apply(cronJob: CronJob, signal: AbortSignal): Promise<Result> {
    // Compare cronJob.spec with the cluster here and write the difference (createOrUpdate, with
    // setControllerReference), then set Available from what is ready: True only for work done.
    const before = cloneJson(cronJob.status);
    const generation = cronJob.metadata?.generation;
    const message = 'CronJobReconciler.apply makes nothing yet';
    setCondition(cronJob, { type: 'Available', status: 'Unknown', reason: 'NotImplemented', message });
    setCondition(cronJob, { type: 'Progressing', status: 'False', reason: 'Reconciled' });
    setCondition(cronJob, { type: 'Degraded', status: 'False', reason: 'Reconciled' });
    cronJob.status = { ...cronJob.status, observedGeneration: generation };
    await this.writeStatus(cronJob, before, signal);
    if (before?.observedGeneration !== generation) {
      const note = \`reconciled generation \${String(generation)} of the spec\`;
      loggerFrom(signal).info(note);
      this.events.event(cronJob, 'Normal', 'Reconciled', 'Reconcile', note);
    }
    return done();
  }`;

/** The tutorial's reconcile, in the steps the page walks through, one region each. */
const TUTORIAL_APPLY = `  // #region apply
  /**
   * Runs the CronJob's Jobs on schedule: reports the running ones, prunes the finished ones past
   * the history limits, starts the run that is due, and asks to be called again for the next one.
   */
  async apply(cronJob: CronJob, signal: AbortSignal): Promise<Result> {
    const log = loggerFrom(signal);
    const before = cloneJson(cronJob.status);
    const generation = cronJob.metadata?.generation;
    const now = new Date(this.clock.now());

    // 1. The CronJob's Jobs, read from the cache through the field index setup() registered. The
    // last run is the latest of theirs and the one the status recorded: a run whose Job the
    // history limit deleted has still run.
    const jobs = sortJobs(await this.ownedJobs(cronJob, signal));
    const recorded = cronJob.status?.lastScheduleTime;
    const lastRun = latest(jobs.lastScheduled, recorded === undefined ? undefined : new Date(recorded));
    cronJob.status = {
      ...cronJob.status,
      active: jobs.active.map(jobReference),
      lastScheduleTime: lastRun ? formatTime(lastRun) : undefined,
      observedGeneration: generation,
    };

    // 2. Finished Jobs past the history limits go, oldest first.
    await this.prune(jobs.successful, cronJob.spec.successfulJobsHistoryLimit, signal);
    await this.prune(jobs.failed, cronJob.spec.failedJobsHistoryLimit, signal);

    // 3. A suspended CronJob starts nothing, and waits for its spec to change.
    if (cronJob.spec.suspend === true) {
      this.report(cronJob, 'False', 'Suspended', 'spec.suspend is true: no run starts');
      await this.writeStatus(cronJob, before, signal);
      return done();
    }

    // 4. The run that is due now, if any, and when the next one is.
    const since = lastRun ?? new Date(cronJob.metadata?.creationTimestamp ?? now);
    const { due, missed, next } = dueRuns(cronJob.spec, since, now);
    const nextRun = requeueAfter(next.getTime() - now.getTime());
    if (missed > MAX_MISSED_RUNS) {
      // As Kubernetes' CronJob controller: say so, and start the latest run all the same.
      const note = \`more than \${MAX_MISSED_RUNS.toString()} runs missed: check the clock, or set startingDeadlineSeconds\`;
      this.events.event(cronJob, 'Warning', 'TooManyMissedTimes', 'Run', note);
    }
    this.report(cronJob, 'True', 'Scheduled', \`next run at \${formatTime(next)}\`);
    if (due === undefined) {
      await this.writeStatus(cronJob, before, signal);
      return nextRun;
    }

    // 5. The concurrency policy decides about the runs still going.
    if (cronJob.spec.concurrencyPolicy === 'Forbid' && jobs.active.length > 0) {
      log.info('a run is due but the previous one still runs: skipped', { due: formatTime(due) });
      await this.writeStatus(cronJob, before, signal);
      return nextRun;
    }
    if (cronJob.spec.concurrencyPolicy === 'Replace') {
      for (const job of jobs.active) await this.deleteJob(job, signal);
      cronJob.status.active = [];
    }

    // 6. Start the due run. Its name holds its time, so a second reconcile cannot start it again.
    const job = jobFor(cronJob, due);
    try {
      const created = await this.client.create(job, { signal });
      this.events.event(cronJob, 'Normal', 'Started', 'Run', \`started Job \${job.metadata.name}\`);
      cronJob.status.active = [...(cronJob.status.active ?? []), jobReference(created)];
    } catch (err) {
      // Started by an earlier reconcile whose Job the cache has yet to show.
      if (!isAlreadyExists(err)) throw err;
    }
    cronJob.status.lastScheduleTime = formatTime(due);
    await this.writeStatus(cronJob, before, signal);

    // 7. Called again when the next run is due (or when one of its Jobs changes, as it owns them).
    return nextRun;
  }
  // #endregion apply

  // #region owned-jobs
  /**
   * The Jobs this CronJob controls, from the manager's cache: those of an earlier CronJob of the
   * same name, which the garbage collector has yet to delete, are not its own.
   */
  async ownedJobs(cronJob: CronJob, signal: AbortSignal): Promise<Json<V1Job>[]> {
    const jobs = await this.client.list(JobKind, {
      namespace: cronJob.metadata?.namespace ?? '',
      fieldSelector: \`\${JOB_OWNER_KEY}=\${cronJob.metadata?.name ?? ''}\`,
      signal,
    });
    return jobs.items.filter((job) => getControllerOf(job)?.uid === cronJob.metadata?.uid);
  }

  /** Deletes a Job with its Pods; one already gone (another reconcile, the garbage collector) is fine. */
  async deleteJob(job: Json<V1Job>, signal: AbortSignal): Promise<void> {
    try {
      await this.client.delete(job, { propagationPolicy: 'Background', signal });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  // #endregion owned-jobs

  // #region prune
  /** Deletes the oldest of \`finished\` (sorted oldest first) beyond \`limit\`, with their Pods. */
  async prune(
    finished: readonly Json<V1Job>[],
    limit: number | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    if (limit === undefined) return;
    for (const job of finished.slice(0, Math.max(0, finished.length - limit))) {
      await this.deleteJob(job, signal);
    }
  }
  // #endregion prune

  // #region report
  /** Available says whether runs start; the scaffold's other conditions say nothing went wrong. */
  report(cronJob: CronJob, available: 'True' | 'False', reason: string, message: string): void {
    setCondition(cronJob, { type: 'Available', status: available, reason, message });
    setCondition(cronJob, { type: 'Progressing', status: 'False', reason: 'Reconciled' });
    setCondition(cronJob, { type: 'Degraded', status: 'False', reason: 'Reconciled' });
  }
  // #endregion report`;

/** Helpers of the tutorial's reconcile, below the class. */
const TUTORIAL_HELPERS = `
// #region jobs
/** The annotation on each Job with the time it was scheduled for. */
export const SCHEDULED_TIME_ANNOTATION = 'batch.tutorial.tsoperator.io/scheduled-at';

/** A CronJob's Jobs by state: finished ones oldest first, and the latest scheduled time. */
export interface SortedJobs {
  readonly active: Json<V1Job>[];
  readonly successful: Json<V1Job>[];
  readonly failed: Json<V1Job>[];
  readonly lastScheduled: Date | undefined;
}

/** A Job is finished once its Complete or Failed condition is True. */
function finishedAs(job: Json<V1Job>): 'Complete' | 'Failed' | undefined {
  const finished = job.status?.conditions?.find(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
  return finished?.type === 'Complete' || finished?.type === 'Failed' ? finished.type : undefined;
}

/** When a Job was scheduled for, from its annotation. */
export function scheduledTime(job: Json<V1Job>): Date | undefined {
  const text = job.metadata?.annotations?.[SCHEDULED_TIME_ANNOTATION];
  return text === undefined ? undefined : new Date(text);
}

/** Sorts a CronJob's Jobs by state. */
export function sortJobs(jobs: readonly Json<V1Job>[]): SortedJobs {
  const byTime = (a: Json<V1Job>, b: Json<V1Job>): number =>
    (scheduledTime(a)?.getTime() ?? 0) - (scheduledTime(b)?.getTime() ?? 0);
  const ordered = [...jobs].sort(byTime);
  const last = ordered.at(-1);
  return {
    active: ordered.filter((job) => finishedAs(job) === undefined),
    successful: ordered.filter((job) => finishedAs(job) === 'Complete'),
    failed: ordered.filter((job) => finishedAs(job) === 'Failed'),
    lastScheduled: last === undefined ? undefined : scheduledTime(last),
  };
}

/** The later of two times, either of which may be missing. */
function latest(a: Date | undefined, b: Date | undefined): Date | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return a > b ? a : b;
}

/** A reference to a Job, for the CronJob's status. */
function jobReference(job: Json<V1Job>): V1ObjectReference {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    name: job.metadata?.name,
    namespace: job.metadata?.namespace,
    uid: job.metadata?.uid,
  };
}

/**
 * The Job of the run scheduled for \`due\`: the CronJob's template, named after the CronJob and the
 * run's time in seconds, annotated with that time, and controlled by the CronJob (so that it
 * wakes the controller and goes with the CronJob).
 */
export function jobFor(cronJob: CronJob, due: Date): Json<V1Job> & { metadata: { name: string } } {
  const template = cronJob.spec.jobTemplate;
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: \`\${cronJob.metadata?.name ?? ''}-\${Math.floor(due.getTime() / 1000).toString()}\`,
      namespace: cronJob.metadata?.namespace,
      labels: { ...template.metadata?.labels },
      annotations: { ...template.metadata?.annotations, [SCHEDULED_TIME_ANNOTATION]: formatTime(due) },
    },
    spec: cloneJson(template.spec),
  };
  setControllerReference(cronJob, job);
  return job;
}
// #endregion jobs
`;

/** The schedule's arithmetic, in a file of its own: pure, so its test needs no cluster. */
const SCHEDULE_FILE = `import { Cron } from 'croner';
import type { CronJobSpec } from '../api/v1/cronjob.types.ts';

// #region due-runs
/** More missed runs than this means a clock or a schedule gone wrong: the controller says so. */
export const MAX_MISSED_RUNS = 100;

/** The run to start now, if one is due, and when the one after it is. */
export interface DueRuns {
  /** The latest scheduled time in (since, now], unless it is past spec.startingDeadlineSeconds. */
  readonly due: Date | undefined;
  /** How many scheduled times fell in (since, now], counted up to MAX_MISSED_RUNS + 1. */
  readonly missed: number;
  /** The first scheduled time after now. */
  readonly next: Date;
}

/**
 * Which run is due at \`now\`, given that the last one was scheduled for \`since\` (or the CronJob
 * was created then): only the latest missed run starts, and not at all once it is older than the
 * starting deadline, as Kubernetes' CronJob controller does.
 */
export function dueRuns(spec: CronJobSpec, since: Date, now: Date): DueRuns {
  const cron = new Cron(spec.schedule, { paused: true });
  // previousRuns gives the runs before its reference: one millisecond on, \`now\` itself counts.
  const latest = cron.previousRuns(1, new Date(now.getTime() + 1))[0];
  const missed = latest !== undefined && latest > since ? runsBetween(cron, since, now) : 0;
  const deadline = spec.startingDeadlineSeconds;
  const tooLate =
    deadline !== undefined && latest !== undefined && now.getTime() - latest.getTime() > deadline * 1000;
  const next = cron.nextRun(now);
  if (next === null) throw new Error(\`the schedule \${spec.schedule} has no run after \${now.toISOString()}\`);
  return { due: missed > 0 && !tooLate ? latest : undefined, missed, next };
}

/** The scheduled times in (since, now], counted up to one more than MAX_MISSED_RUNS. */
function runsBetween(cron: Cron, since: Date, now: Date): number {
  return cron.nextRuns(MAX_MISSED_RUNS + 1, since).filter((run) => run <= now).length;
}
// #endregion due-runs
`;

/** The schedule's test: fixed times, no cluster, no waiting. */
const SCHEDULE_TEST = `import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CronJobSpec } from '../../src/api/v1/cronjob.types.ts';
import { dueRuns } from '../../src/controllers/due-runs.ts';

const everyMinute: CronJobSpec = { schedule: '*/1 * * * *', jobTemplate: {} };
const at = (time: string): Date => new Date(\`2026-03-01T\${time}Z\`);

// #region test
describe('dueRuns', () => {
  it('has nothing due before the first scheduled time, and names it as next', () => {
    const { due, next } = dueRuns(everyMinute, at('10:00:10'), at('10:00:50'));

    assert.equal(due, undefined);
    assert.deepEqual(next, at('10:01:00'));
  });

  it('starts only the latest of several missed runs', () => {
    const { due, next } = dueRuns(everyMinute, at('10:00:10'), at('10:03:30'));

    assert.deepEqual(due, at('10:03:00'));
    assert.deepEqual(next, at('10:04:00'));
  });

  it('starts no run older than the starting deadline', () => {
    const spec = { ...everyMinute, startingDeadlineSeconds: 20 };

    assert.equal(dueRuns(spec, at('10:00:10'), at('10:03:30')).due, undefined);
    assert.deepEqual(dueRuns(spec, at('10:00:10'), at('10:03:15')).due, at('10:03:00'));
  });

  it('still starts the latest run after more than 100 missed, and says how many it counted', () => {
    const { due, missed } = dueRuns(everyMinute, at('10:00:00'), at('12:00:30'));

    assert.deepEqual(due, at('12:00:00'));
    assert.equal(missed, 101);
  });

  it('takes a run scheduled for now as due, and one at since as done', () => {
    assert.deepEqual(dueRuns(everyMinute, at('10:00:00'), at('10:01:00')).due, at('10:01:00'));
    assert.equal(dueRuns(everyMinute, at('10:01:00'), at('10:01:00')).due, undefined);
  });
});
// #endregion test
`;

/**
 * The controller's test, rewritten around the runs: the scaffold's set-up (envtest, the manager's
 * cache with the controller's index), a FakeClock the test moves, and Jobs it finishes itself.
 */
const CONTROLLER_TEST = `import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { loadYaml } from '@kubernetes/client-node';
import { eventually, startEnvironment } from 'tsoperator/envtest';
import { CronJobKind, type CronJob } from '../../src/api/v1/cronjob.types.ts';
import {
  FakeClock,
  JobKind,
  Manager,
  done,
  findStatusCondition,
  mergePatch,
  newClient,
  systemClock,
} from '../../src/runtime/index.ts';
import { CronJobReconciler, SCHEDULED_TIME_ANNOTATION } from '../../src/controllers/cronjob.controller.ts';

// The controller runs against a real kube-apiserver and etcd (envtest), called directly: a test
// drives one reconcile at a time, at the time it sets, and looks at what it wrote.
test('CronJobReconciler', async (t) => {
  await using env = await startEnvironment({ crdPaths: ['config/crd/bases'] });
  const client = newClient({ kubeConfig: env.kubeConfig });
  // The reconciler reads through the manager's cache, with the watch and field index its setup
  // registers, as under \`npm start\`; its controller is never started: the test calls reconcile.
  const mgr = await Manager.create({ kubeConfig: env.kubeConfig });
  // #region fake-clock
  // The clock the reconciler reads: the test moves it, nothing sleeps.
  const clock = new FakeClock(systemClock.now());
  const reconciler = new CronJobReconciler(mgr.client, mgr.events, clock);
  // #endregion fake-clock
  reconciler.setup(mgr);
  using caches = {
    stop: new AbortController(),
    [Symbol.dispose](): void {
      this.stop.abort();
    },
  };
  mgr.cache.start(caches.stop.signal);
  const signal = AbortSignal.timeout(60_000);
  assert.ok(await mgr.cache.waitForCacheSync(signal), 'the caches synced');

  const key = { namespace: 'default', name: 'test-cronjob' };
  const sample = async (): Promise<CronJob> => {
    const fromFile = loadYaml<CronJob>(await readFile('config/samples/batch_v1_cronjob.yaml', 'utf8'));
    return { ...fromFile, metadata: { name: key.name, namespace: key.namespace } };
  };
  // The cache sees a write a moment after the API server answered it: reconcile once it has.
  const cacheCaughtUp = async (): Promise<void> => {
    const latest = await client.listAll(JobKind, { namespace: key.namespace });
    const cronJob = await client.get(CronJobKind, key);
    await eventually(async () => {
      const cached = await mgr.client.listAll(JobKind, { namespace: key.namespace });
      assert.deepEqual(cached.map(resourceVersion), latest.map(resourceVersion));
      const cachedCronJob = await mgr.client.get(CronJobKind, key, { signal });
      assert.equal(cachedCronJob?.metadata?.resourceVersion, cronJob?.metadata?.resourceVersion);
    });
  };
  const jobs = (): Promise<string[]> =>
    client
      .listAll(JobKind, { namespace: key.namespace })
      .then((all) => all.filter((job) => job.metadata?.deletionTimestamp === undefined).map(name));
  // #region finish-jobs
  // No kube-controller-manager runs here: the test says how each running Job ended, as the Job
  // controller would.
  const finishJobs = async (): Promise<void> => {
    for (const job of await client.listAll(JobKind, { namespace: key.namespace })) {
      if (job.status?.conditions !== undefined) continue;
      const now = new Date().toISOString();
      const status = {
        startTime: now,
        completionTime: now,
        succeeded: 1,
        conditions: [
          { type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: now },
          { type: 'Complete', status: 'True', lastTransitionTime: now },
        ],
      };
      await client.status().patch(job, mergePatch({ status }));
    }
  };
  // #endregion finish-jobs

  // #region test-runs
  await t.test('starts nothing before the first run is due', async () => {
    await client.create(await sample());
    await cacheCaughtUp();
    // From the second the CronJob was created: a minute on, a run is always due.
    const created = Date.parse((await client.get(CronJobKind, key))?.metadata?.creationTimestamp ?? '');
    if (created > clock.now()) clock.advance(created - clock.now());

    const result = await reconciler.reconcile(key, signal);

    assert.ok(result.requeueAfter !== undefined && result.requeueAfter <= 60_000, 'called again for the run');
    assert.deepEqual(await jobs(), []);
  });

  await t.test('starts the due run once, and reports it', async () => {
    clock.advance(60_000);

    await reconciler.reconcile(key, signal);
    await cacheCaughtUp();
    await reconciler.reconcile(key, signal);

    const started = await client.listAll(JobKind, { namespace: key.namespace });
    assert.equal(started.length, 1, 'one Job, though reconciled twice');
    const cronJob = await client.get(CronJobKind, key);
    assert.deepEqual(
      cronJob?.status?.active?.map((job) => job.name),
      started.map(name),
    );
    const scheduledAt = started[0]?.metadata?.annotations?.[SCHEDULED_TIME_ANNOTATION];
    assert.equal(cronJob?.status?.lastScheduleTime, scheduledAt);
    assert.equal(findStatusCondition(cronJob?.status?.conditions ?? [], 'Available')?.status, 'True');
  });

  await t.test('keeps successfulJobsHistoryLimit finished Jobs, the newest', async () => {
    for (let run = 0; run < 2; run += 1) {
      await finishJobs();
      clock.advance(60_000);
      await cacheCaughtUp();
      await reconciler.reconcile(key, signal);
    }
    await finishJobs();
    await cacheCaughtUp();
    await reconciler.reconcile(key, signal);

    // The sample keeps one successful Job: of three finished runs, the newest is left.
    const newest = (await client.get(CronJobKind, key))?.status?.lastScheduleTime ?? '';
    const seconds = (Date.parse(newest) / 1000).toString();
    assert.deepEqual(await jobs(), [\`\${key.name}-\${seconds}\`]);
  });

  await t.test('does not start a run again once the history limit deleted its Job', async () => {
    const cronJob = await client.get(CronJobKind, key);
    assert.ok(cronJob);
    await client.patch(cronJob, mergePatch({ spec: { successfulJobsHistoryLimit: 0 } }));
    await cacheCaughtUp();
    await reconciler.reconcile(key, signal);
    await cacheCaughtUp();

    await reconciler.reconcile(key, signal);

    assert.deepEqual(await jobs(), []);
  });

  await t.test('with Replace, deletes the running Job before it starts the next', async () => {
    const cronJob = await client.get(CronJobKind, key);
    assert.ok(cronJob);
    await client.patch(cronJob, mergePatch({ spec: { concurrencyPolicy: 'Replace' } }));
    clock.advance(60_000);
    await cacheCaughtUp();
    await reconciler.reconcile(key, signal);
    const [running] = await jobs();
    clock.advance(60_000);
    await cacheCaughtUp();

    await reconciler.reconcile(key, signal);

    const [next, ...others] = await jobs();
    assert.ok(
      running !== undefined && next !== undefined && next !== running,
      'a new Job replaced the running one',
    );
    assert.deepEqual(others, []);
    const active = (await client.get(CronJobKind, key))?.status?.active ?? [];
    assert.deepEqual(
      active.map((job) => job.name),
      [next],
    );
    assert.ok(active[0]?.uid, 'the reference names the Job by uid too');
  });

  await t.test('starts nothing while suspended', async () => {
    const cronJob = await client.get(CronJobKind, key);
    assert.ok(cronJob);
    await client.patch(cronJob, mergePatch({ spec: { suspend: true } }));
    const before = await jobs();
    clock.advance(5 * 60_000);
    await cacheCaughtUp();

    assert.deepEqual(await reconciler.reconcile(key, signal), done());

    assert.deepEqual(await jobs(), before);
    const conditions = (await client.get(CronJobKind, key))?.status?.conditions ?? [];
    assert.equal(findStatusCondition(conditions, 'Available')?.reason, 'Suspended');
  });
  // #endregion test-runs

  await t.test('is done with an object that no longer exists', async () => {
    const result = await reconciler.reconcile({ namespace: 'default', name: 'missing' }, signal);

    assert.deepEqual(result, done());
  });
});

function name(object: { metadata?: { name?: string } }): string {
  return object.metadata?.name ?? '';
}

function resourceVersion(object: { metadata?: { resourceVersion?: string } }): string {
  return object.metadata?.resourceVersion ?? '';
}
`;

/**
 * Makes the book's CronJob tutorial project: `init`, `create api`, the kind's types, a controller
 * that runs Jobs on schedule with an injected clock, its tests, and webhooks that default and
 * validate the spec.
 */
export async function cronjobTutorial({ tsoperator, dir }: SampleContext): Promise<void> {
  await tsoperator('init', '--domain', 'tutorial.tsoperator.io', '--project-name', 'project');
  await tsoperator('create', 'api', '--group', 'batch', '--version', 'v1', '--kind', 'CronJob');
  // \`npm install croner@11\`, as the page has the reader run: the schedule's parser.
  await userEdit(dir, 'package.json', [['  "dependencies": {\n', '  "dependencies": {\n    "croner": "^11.0.1",\n']]);
  await userEdit(dir, 'src/api/v1/cronjob.types.ts', [
    [TYPES_IMPORT, TUTORIAL_TYPES_IMPORT],
    [EXAMPLE_FIELD, SPEC],
    [STATUS_END, TUTORIAL_STATUS_END],
    // Every CronJob has a spec: the controller reads it without a check.
    [
      '  // +optional\n  /** spec is the desired state of the CronJob. */\n  spec?: CronJobSpec;',
      '  // +required\n  /** spec is the desired state of the CronJob. */\n  spec: CronJobSpec;',
    ],
  ]);
  // The Job template brings a Pod spec's schema, descriptions and all: drop them, as the tutorial
  // of Kubebuilder does with crd:maxDescLen=0.
  await tsoperator('edit', '--max-desc-len', '0');
  await userEdit(dir, 'config/samples/batch_v1_cronjob.yaml', [['  # Set the fields of CronJobSpec here.\n  foo: bar', SAMPLE_SPEC]]);
  const header = await licenseHeader(dir);
  await writeFile(join(dir, 'src/controllers/due-runs.ts'), header + SCHEDULE_FILE);
  await writeFile(join(dir, 'test/controllers/due-runs.test.ts'), header + SCHEDULE_TEST);
  await userEdit(dir, 'src/controllers/cronjob.controller.ts', controllerEdits());
  await appendTo(dir, 'src/controllers/cronjob.controller.ts', TUTORIAL_HELPERS);
  await writeFile(join(dir, 'test/controllers/cronjob.controller.test.ts'), header + CONTROLLER_TEST);
  await tsoperator('manifests');
  await tsoperator(
    'create',
    'webhook',
    '--group',
    'batch',
    '--version',
    'v1',
    '--kind',
    'CronJob',
    '--defaulting',
    '--programmatic-validation',
  );
  await userEdit(dir, 'src/webhooks/v1/cronjob.defaulter.ts', defaulterEdits());
  await userEdit(dir, 'src/webhooks/v1/cronjob.validator.ts', validatorEdits());
  await userEdit(dir, 'test/webhooks/v1/cronjob.webhook.test.ts', webhookTestEdits());
}

/** The license comment `init` put at the top of the project's files, for the files the reader adds. */
async function licenseHeader(dir: string): Promise<string> {
  const main = await readFile(join(dir, 'src/main.ts'), 'utf8');
  const end = main.startsWith('/*') ? main.indexOf('*/') : -1;
  return end === -1 ? '' : `${main.slice(0, end + 2)}\n\n`;
}

/** The controller: the clock, the index, the owned Jobs, and the tutorial's apply. */
function controllerEdits(): (readonly [string, string])[] {
  return [
    [
      "import {\n  cloneJson,\n  containsFinalizer,\n",
      "import type { V1Job, V1ObjectReference } from '@kubernetes/client-node';\nimport {\n  cloneJson,\n  containsFinalizer,\n",
    ],
    ['  finalize,\n', '  finalize,\n  formatTime,\n  getControllerOf,\n'],
    ['  isBeingDeleted,\n  isConflict,\n', '  isAlreadyExists,\n  isBeingDeleted,\n  isConflict,\n  isNotFound,\n  JobKind,\n'],
    ['  requeue,\n', '  requeue,\n  requeueAfter,\n  setControllerReference,\n'],
    ['  setCondition,\n', '  setCondition,\n  systemClock,\n  type Clock,\n'],
    ['  type EventRecorder,\n', '  type EventRecorder,\n  type Json,\n'],
    [
      "import { CronJobKind, type CronJob } from '../api/v1/cronjob.types.ts';\n",
      "import { CronJobKind, type CronJob } from '../api/v1/cronjob.types.ts';\nimport { dueRuns, MAX_MISSED_RUNS } from './due-runs.ts';\n\n" +
        '// #region index\n/** The field index of Jobs by the name of the CronJob that controls them. */\n' +
        "export const JOB_OWNER_KEY = '.metadata.controller';\n// #endregion index\n",
    ],
    [
      '// +kubebuilder:rbac:groups=events.k8s.io,',
      '// #region rbac\n// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create;update;patch;delete\n' +
        '// +kubebuilder:rbac:groups=batch,resources=jobs/status,verbs=get\n// #endregion rbac\n' +
        '// +kubebuilder:rbac:groups=events.k8s.io,',
    ],
    [
      '  constructor(client: Client, events: EventRecorder) {\n    this.client = client;\n    this.events = events;\n  }',
      '  // #region clock\n  /** What time it is: systemClock under `npm start`, a FakeClock in tests. */\n' +
        '  readonly clock: Clock;\n\n' +
        '  constructor(client: Client, events: EventRecorder, clock: Clock = systemClock) {\n' +
        '    this.client = client;\n    this.events = events;\n    this.clock = clock;\n  }\n  // #endregion clock',
    ],
    [
      "    mgr.controller('cronjob').for(CronJobKind).complete(this);",
      '    // #region setup\n    // Jobs by the CronJob that controls them: apply lists a CronJob\'s Jobs through this index.\n' +
        '    mgr.cache.indexField(JobKind, JOB_OWNER_KEY, (job) => {\n' +
        '      const owner = getControllerOf(job);\n' +
        "      return owner?.apiVersion === CronJobKind.apiVersion && owner.kind === 'CronJob' ? [owner.name] : [];\n" +
        '    });\n' +
        "    // A Job that changes (finishes, is deleted) reconciles the CronJob that controls it.\n" +
        "    mgr.controller('cronjob').for(CronJobKind).owns(JobKind).complete(this);\n    // #endregion setup",
    ],
    [SCAFFOLD_APPLY, TUTORIAL_APPLY],
  ];
}

/** The defaulter: Kubebuilder's tutorial's defaults for the fields the CRD does not default. */
function defaulterEdits(): (readonly [string, string])[] {
  return [
    [
      '    // An example default: replace it with your kind\'s own.\n    cronJob.spec.startingDeadlineSeconds ??= 1;',
      '    // #region default\n' +
        "    cronJob.spec.concurrencyPolicy ??= 'Allow';\n" +
        '    cronJob.spec.suspend ??= false;\n' +
        '    cronJob.spec.successfulJobsHistoryLimit ??= 3;\n' +
        '    cronJob.spec.failedJobsHistoryLimit ??= 1;\n' +
        '    // #endregion default',
    ],
  ];
}

/** The scaffold's example rule, which the tutorial's replaces. */
const SCAFFOLD_RULE = `/** An example rule: replace it with your kind's own. */
function validateCronJob(cronJob: CronJob): Warnings {
  const schedule = cronJob.spec.schedule;
  if (schedule === '') {
    throw new ValidationError([{ field: 'spec.schedule', type: 'Required', message: 'must not be empty' }]);
  }
  if (schedule.length > MAX_SCHEDULE_LENGTH) {
    return [\`spec.schedule is longer than \${MAX_SCHEDULE_LENGTH.toString()} characters\`];
  }
  return [];
}`;

/** The tutorial's rules: a schedule that parses, and a name short enough for its Jobs' names. */
const TUTORIAL_RULE = `// #region validate
/** A CronJob's Jobs are named after it plus 11 characters, and a Job's name must fit in 63. */
const MAX_NAME_LENGTH = 52;

/** Refuses a CronJob whose schedule does not parse, or whose name is too long for its Jobs. */
function validateCronJob(cronJob: CronJob): Warnings {
  const errors: FieldError[] = [];
  const name = cronJob.metadata?.name ?? '';
  if (name.length > MAX_NAME_LENGTH) {
    errors.push({
      field: 'metadata.name',
      type: 'TooLong',
      message: \`may not be more than \${MAX_NAME_LENGTH.toString()} characters\`,
    });
  }
  const problem = scheduleProblem(cronJob.spec.schedule);
  if (problem !== undefined) {
    errors.push({ field: 'spec.schedule', value: cronJob.spec.schedule, message: problem });
  }
  if (errors.length > 0) throw new ValidationError(errors);
  return [];
}

/**
 * What is wrong with a schedule, as Kubernetes' CronJob reads schedules: five fields (minute,
 * hour, day of month, month, day of week) or a descriptor such as \`@hourly\`, with a next run.
 */
function scheduleProblem(schedule: string): string | undefined {
  const text = schedule.trim();
  if (!text.startsWith('@') && text.split(/\\s+/).length !== 5) {
    return 'must have five fields: minute, hour, day of month, month and day of week';
  }
  try {
    if (new Cron(text, { paused: true }).nextRun() === null) return 'has no next run';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  return undefined;
}
// #endregion validate`;

function validatorEdits(): (readonly [string, string])[] {
  return [
    [
      "import { ValidationError, type CustomValidator, type Warnings } from '../../runtime/index.ts';",
      "import { Cron } from 'croner';\n" +
        'import {\n  ValidationError,\n  type CustomValidator,\n  type FieldError,\n  type Warnings,\n' +
        "} from '../../runtime/index.ts';",
    ],
    [
      '/** Longer values of spec.schedule are admitted with a warning, in the example rule below. */\n' +
        'const MAX_SCHEDULE_LENGTH = 63;\n\n',
      '',
    ],
    [SCAFFOLD_RULE, TUTORIAL_RULE],
  ];
}

/** The scaffold's case for its example rule, which the tutorial's cases replace. */
export const SCAFFOLD_INVALID_CASE =
  "    invalid.spec.schedule = '';\n\n" +
  "    await assert.rejects(client.create(invalid), /spec\\.schedule: Required value: must not be empty/);\n  });";

/** The tutorial's cases for its validator's rules. */
export const TUTORIAL_INVALID_CASES =
  "    invalid.spec.schedule = 'every minute';\n\n" +
  "    await assert.rejects(client.create(invalid), /spec\\.schedule: Invalid value: \"every minute\"/);\n  });\n\n" +
  "  await t.test('refuses a schedule with seconds, or with no next run', async () => {\n" +
  "    const seconds = await cronJob('seconds');\n" +
  "    seconds.spec.schedule = '0 */5 * * * *';\n" +
  "    await assert.rejects(client.create(seconds), /spec\\.schedule: Invalid value: .*: must have five fields/);\n" +
  "    const never = await cronJob('never');\n" +
  "    never.spec.schedule = '0 0 31 2 *';\n" +
  "    await assert.rejects(client.create(never), /spec\\.schedule: Invalid value: .*: has no next run/);\n" +
  '  });\n\n' +
  "  await t.test('refuses a name too long for the names of its Jobs', async () => {\n" +
  "    await assert.rejects(client.create(await cronJob('a'.repeat(53))), /metadata\\.name: Too long/);\n  });";

/** The webhook test, for the tutorial's defaults and rules. */
function webhookTestEdits(): (readonly [string, string])[] {
  return [
    [
      '    delete probe.spec.startingDeadlineSeconds;\n    const answered = await client.create(probe, { dryRun: true });\n' +
        '    return answered.spec.startingDeadlineSeconds === 1;',
      '    delete probe.spec.successfulJobsHistoryLimit;\n    const answered = await client.create(probe, { dryRun: true });\n' +
        '    return answered.spec.successfulJobsHistoryLimit === 3;',
    ],
    [
      "  await t.test('fills in the defaults', async () => {\n    const defaulted = await cronJob('defaulted');\n" +
        '    delete defaulted.spec.startingDeadlineSeconds;\n\n    const created = await client.create(defaulted);\n\n' +
        '    assert.equal(created.spec.startingDeadlineSeconds, 1);\n  });',
      '  // #region test\n' +
        "  await t.test('fills in the defaults', async () => {\n    const defaulted = await cronJob('defaulted');\n" +
        '    delete defaulted.spec.suspend;\n    delete defaulted.spec.successfulJobsHistoryLimit;\n' +
        '    delete defaulted.spec.failedJobsHistoryLimit;\n\n    const created = await client.create(defaulted);\n\n' +
        '    assert.equal(created.spec.suspend, false);\n    assert.equal(created.spec.successfulJobsHistoryLimit, 3);\n' +
        '    assert.equal(created.spec.failedJobsHistoryLimit, 1);\n  });',
    ],
    [SCAFFOLD_INVALID_CASE, `${TUTORIAL_INVALID_CASES}\n  // #endregion test`],
  ];
}
